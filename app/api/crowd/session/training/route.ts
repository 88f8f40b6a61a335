import { answerTraining, getTrainingItem, trainingAnswerSchema } from "@/lib/crowd/training";
import { json, readJson, requestContext, route } from "@/app/_server/http";

// GET /api/crowd/session/training — the worker's next training item (null once training is over) and the session.
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await getTrainingItem(db, actor));
});

// POST /api/crowd/session/training — a training answer: the expected verdict and span and the explanation come back.
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await answerTraining(db, actor, await readJson(req, trainingAnswerSchema)));
});
