import { listUsers } from '@fixdesk/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** User administration. The list is here now; create/edit/delete arrive with the User Management screen. */
export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/users', { config: { access: 'admin' } }, async () => {
    const users = await listUsers(ctx.db);
    return { success: true, users };
  });
}
