/**
 * `app/api/cron/route.ts`: the sweeper on a schedule, for hosts without a long-running process
 * (Vercel Cron calls it with `Authorization: Bearer $CRON_SECRET`). One call expires what is due,
 * re-inquires unknown authorizations, and delivers the events waiting in the outbox.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { engine } from '../../../paystate';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the shared secret, compared in constant time. */
function authorized(request: Request): boolean {
  const secret = process.env['CRON_SECRET'];
  if (secret === undefined || secret.length < 16) return false; // no secret set: nobody may call it
  return timingSafeEqual(digest(request.headers.get('authorization') ?? ''), digest(`Bearer ${secret}`));
}

export async function GET(request: Request): Promise<Response> {
  if (!authorized(request)) return Response.json({ error: 'unauthorized' }, { status: 401 });
  // Codes only: a failure's message may hold an adapter's text (the engine logs it).
  const sweep = await engine.sweep().match(
    (report) => ({ ok: true as const, report }),
    (error) => ({ ok: false as const, code: error.code }),
  );
  const delivery = await engine.deliverEvents().match(
    (delivered) => ({ ok: true as const, delivered }),
    (error) => ({ ok: false as const, code: error.code }),
  );
  return Response.json({ sweep, delivery }, { status: sweep.ok && delivery.ok ? 200 : 503 });
}
