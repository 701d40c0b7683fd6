/** `app/readyz/route.ts`: readiness, storage answers within 1.5 s. */
import { health } from '../../paystate';

export const dynamic = 'force-dynamic';

export const GET = health.readiness;
export const HEAD = health.readiness;
