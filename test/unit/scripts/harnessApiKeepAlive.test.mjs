// The differential harness's APIs (the synthesized API of the whole-corpus runs, the scripted API of the
// component goldens) run in the same process as our runtime, and the reference CDK talks to them from
// another process. On a starved machine that process stops for seconds at a time; a server that closes a
// keep-alive connection after Node's default 5 s of silence then resets a request that arrived during the
// stop ("Connection reset by peer" in the reference, "Connection aborted" in ours): source-apple-search-ads'
// `campaigns` and `adgroups_report_daily` differed that way in the run of 2026-11-27. The APIs keep idle
// connections open for the whole read instead.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startScriptedApi } from '../../../scripts/differential/scriptedApi.mjs';
import { startSyntheticApi } from '../../../scripts/differential/syntheticApi.mjs';

/** A raw keep-alive client: each `get` writes a request and resolves with the next response's status line. */
async function rawClient(port) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = '';
  let waiting = null;
  let failure = null;
  const settle = () => {
    const w = waiting;
    if (!w) return;
    const end = buffered.indexOf('\r\n\r\n');
    const head = end >= 0 ? buffered.slice(0, end) : '';
    // A response ends after its Content-Length bytes, or after the last chunk of a chunked body.
    const length = /content-length: (\d+)/i.exec(head)?.[1];
    const last = /transfer-encoding: chunked/i.test(head) ? buffered.indexOf('\r\n0\r\n\r\n', end) : -1;
    const stop = end < 0 ? -1 : length !== undefined ? end + 4 + Number(length) : last >= 0 ? last + 7 : -1;
    if (stop >= 0 && buffered.length >= stop) {
      waiting = null;
      const status = buffered.slice(0, buffered.indexOf('\r\n'));
      buffered = buffered.slice(stop);
      w.resolve(status);
    } else if (failure) {
      waiting = null;
      w.reject(failure);
    }
  };
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    settle();
  });
  const fail = (e) => {
    failure = e;
    settle();
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('connection closed without a response')));
  return {
    /** Writes at once (synchronously), so that nothing of the event loop runs in between. */
    send(path) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        settle();
      });
    },
    close: () => socket.destroy(),
  };
}

/** The whole process stops, as a starved one does: no timer, no socket event runs meanwhile. */
function stall(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy: the point is that the event loop does not run */
  }
}

test('the harness APIs keep an idle connection open through a stall of the process longer than 5 s', async () => {
  const scripted = await startScriptedApi([{ path: '/items', body: { items: [] } }]);
  const synthetic = await startSyntheticApi();
  const scriptedPort = Number(new URL(scripted.origin).port);
  const clients = [await rawClient(scriptedPort), await rawClient(synthetic.port)];
  try {
    for (const c of clients) assert.match(await c.send('/items'), /^HTTP\/1\.1 \d{3}/);
    // One stall for both servers, well past Node's default keepAliveTimeout (5 s); the next request is
    // written right after it, before the servers' timers get a turn.
    stall(7_000);
    const second = clients.map((c) => c.send('/items'));
    for (const answer of await Promise.allSettled(second)) {
      assert.equal(answer.status, 'fulfilled', `the second request on the kept connection failed: ${answer.reason?.message}`);
      assert.match(answer.value, /^HTTP\/1\.1 \d{3}/);
    }
  } finally {
    for (const c of clients) c.close();
    await scripted.close();
    await synthetic.close();
  }
});
