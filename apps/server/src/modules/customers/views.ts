import type { ViewDef } from '../../platform/views/engine';

/** The customers (点价客户) as the trader lists them. */
export const usersView: ViewDef = {
  name: 'users',
  relation: 'pricer_users',
  columns: {
    id: { type: 'number' },
    username: { type: 'text' },
    status: { type: 'text' },
    phone: { type: 'text' },
    created_at: { type: 'date' },
    last_login_at: { type: 'date' },
    full_name: { type: 'text' },
    contact_name: { type: 'text' },
    confirm_before_fix: { type: 'boolean' },
    margin_rate: { type: 'number' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['username', 'phone', 'full_name', 'contact_name'],
};
