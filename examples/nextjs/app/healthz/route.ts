/** `app/healthz/route.ts`: liveness, the process answers. */
import { health } from '../../paystate';

export const dynamic = 'force-dynamic';

export const GET = health.liveness;
export const HEAD = health.liveness;
