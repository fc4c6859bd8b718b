// A small table catalog for dynamic streams: `/catalog/tables` lists tables (an HttpComponentsResolver
// turns each into a stream) and `/catalog/tables/<id>/rows` serves the rows of one table.
import type { ServerResponse } from 'node:http';
import type { DemoRequest, RouteModule } from './types';
import { sendJson } from './dataRoutes';

const TABLES = [
  { id: 'tbl_contacts', name: 'Contacts', rows: [{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }] },
  { id: 'tbl_deals', name: 'Open Deals', rows: [{ id: 10, amount: 1200, stage: 'won' }, { id: 11, amount: 300, stage: 'open' }] },
];

export const catalogRoutes: RouteModule = (req: DemoRequest, res: ServerResponse) => {
  if (req.method !== 'GET') return false;
  if (req.path === '/catalog/tables') {
    sendJson(res, 200, { tables: TABLES.map(({ id, name }) => ({ id, name })) });
    return true;
  }
  const rows = /^\/catalog\/tables\/([^/]+)\/rows$/.exec(req.path);
  if (!rows) return false;
  const table = TABLES.find((t) => t.id === decodeURIComponent(rows[1]));
  if (!table) sendJson(res, 404, { error: `no table ${rows[1]}` });
  else {
    // `?stage=` filters rows, so a config-defined view can ask for a subset.
    const stage = req.query.get('stage');
    sendJson(res, 200, { rows: stage ? table.rows.filter((r) => (r as { stage?: string }).stage === stage) : table.rows });
  }
  return true;
};
