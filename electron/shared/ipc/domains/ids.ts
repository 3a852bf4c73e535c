import { z } from 'zod';

/** A run's, job's or meter's id as a caller passes it back. */
export const IdSchema = z.string().min(1).max(200);
/** A gateway's id as a channel takes it. */
export const GatewayIdSchema = z.string().min(1).max(100);
