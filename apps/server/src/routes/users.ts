import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** User administration. The list is here now; create/edit/delete arrive with the User Management screen. */
export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/users', { config: { access: 'admin' } }, async () => {
    const { rows } = await ctx.db.query(
      `SELECT u.user_id, u.username, u.email, u.first_name, u.last_name, u.whatsapp_number, u.role, u.user_type, u.is_active,
              u.last_login, u.broker_branch_id, b.company_name AS broker_company_name, u.trader_id, u.trader_license,
              u.trader_full_name, u.trader_party_id_source, u.created_at, u.updated_at
         FROM users u LEFT JOIN broker_information b ON b.id = u.broker_branch_id
        ORDER BY u.user_id`,
    );
    return { success: true, users: rows };
  });
}
