// Asynchronous reports for AsyncRetriever demos: create a report job, poll it (pending twice, then
// completed with a download URL), download it as JSON lines or CSV, cancel or delete it (POST .../delete). Every route
// needs the demo API key in the X-API-Key header.
import type { ServerResponse } from 'node:http';
import type { DemoRequest, DemoState, RouteModule } from './types';
import { DEMO_CREDENTIALS } from './authCredentials';
import { sendJson } from './dataRoutes';
import { item } from './datasets';

/** Polls answered "pending" before a report is ready, unless the creation body says `pending_polls`. */
export const PENDING_POLLS = 2;
const MAX_ROWS = 10_000;

type Report = { id: string; format: 'jsonl' | 'csv'; rows: number; category: string | null; pendingPolls: number; polls: number; outcome: 'completed' | 'failed'; state: 'pending' | 'completed' | 'failed' | 'cancelled' };

/** Route module of /async/reports. */
export const asyncReportRoutes: RouteModule = (req: DemoRequest, res: ServerResponse, state: DemoState) => {
  if (!req.path.startsWith('/async/reports')) return false;
  const key = DEMO_CREDENTIALS.apiKey;
  if (req.headers[key.header.toLowerCase()] !== key.key) {
    sendJson(res, 401, { error: `missing or wrong ${key.header} header` });
    return true;
  }
  const reports = (state.asyncReports ??= new Map<string, Report>()) as Map<string, Report>;
  if (req.path === '/async/reports' && req.method === 'POST') return create(req, res, reports, state);
  const m = /^\/async\/reports\/([^/]+)(\/download|\/cancel|\/delete)?$/.exec(req.path);
  const report = m ? reports.get(decodeURIComponent(m[1])) : undefined;
  if (!m || !report) {
    sendJson(res, 404, { error: `no report at ${req.path}` });
    return true;
  }
  const action = `${req.method} ${m[2] ?? ''}`;
  switch (action) {
    case 'GET ': return poll(report, res, state);
    case 'GET /download': return download(report, res);
    case 'POST /cancel':
      if (report.state === 'pending') report.state = 'cancelled';
      sendJson(res, 200, { id: report.id, status: report.state });
      return true;
    // HttpRequester sends only GET and POST, so manifests delete with POST .../delete.
    case 'POST /delete':
    case 'DELETE ':
      reports.delete(report.id);
      res.writeHead(204);
      res.end();
      return true;
    default:
      sendJson(res, 405, { error: `${req.method} is not allowed on ${req.path}` });
      return true;
  }
};

function create(req: DemoRequest, res: ServerResponse, reports: Map<string, Report>, state: DemoState): true {
  let body: Record<string, unknown> = {};
  try {
    body = req.body ? JSON.parse(req.body) : {};
  } catch {
    sendJson(res, 400, { error: 'the body must be a JSON object' });
    return true;
  }
  const format = body.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') {
    sendJson(res, 400, { error: 'format must be "jsonl" or "csv"' });
    return true;
  }
  const rows = body.rows === undefined ? 20 : Number(body.rows);
  if (!Number.isInteger(rows) || rows < 0 || rows > MAX_ROWS) {
    sendJson(res, 400, { error: `rows must be an integer from 0 to ${MAX_ROWS}` });
    return true;
  }
  state.asyncReportCount = ((state.asyncReportCount as number | undefined) ?? 0) + 1;
  const id = `report-${state.asyncReportCount as number}`;
  const pendingPolls = body.pending_polls === undefined ? PENDING_POLLS : Number(body.pending_polls);
  if (!Number.isInteger(pendingPolls) || pendingPolls < 0 || pendingPolls > 10) {
    sendJson(res, 400, { error: 'pending_polls must be an integer from 0 to 10' });
    return true;
  }
  const category = typeof body.category === 'string' && body.category ? body.category : null;
  reports.set(id, { id, format, rows, category, pendingPolls, polls: 0, outcome: body.fail === true ? 'failed' : 'completed', state: 'pending' });
  sendJson(res, 201, { report_id: id, status: 'pending' });
  return true;
}

function poll(report: Report, res: ServerResponse, state: DemoState): true {
  if (report.state === 'pending' && ++report.polls > report.pendingPolls) report.state = report.outcome;
  const done = report.state === 'completed';
  sendJson(res, 200, {
    report_id: report.id,
    status: report.state,
    ...(done ? { download_url: `${state.baseUrl}/async/reports/${encodeURIComponent(report.id)}/download` } : {}),
    ...(report.state === 'failed' ? { error: 'the report could not be generated' } : {}),
  });
  return true;
}

function download(report: Report, res: ServerResponse): true {
  if (report.state !== 'completed') {
    sendJson(res, 409, { error: `report ${report.id} is ${report.state}, not completed` });
    return true;
  }
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; rows.length < report.rows && i < report.rows * 5 + 5; i++) {
    const it = item(i);
    if (!report.category || it.category === report.category) rows.push(it);
  }
  if (report.format === 'jsonl') {
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.end(rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
    return true;
  }
  const columns = ['id', 'name', 'category', 'amount', 'updated_at'];
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => String(r[c])).join(','))];
  res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
  res.end(lines.join('\n') + '\n');
  return true;
}
