#!/usr/bin/env node
// Loads a trace into Perfetto's own trace_processor -- the WebAssembly engine that the Perfetto
// UI runs -- in Node (18 or newer), offline, and reports what the engine made of it as JSON.
//
//   node perfetto_check.mjs TRACE.json [--assets DIR]
//        [--expect-thread "Process/Thread"]...      thread track with at least one slice
//        [--expect-counter "Process/Counter track"]... counter track with at least one value
//        [--expect-flows N]                          exactly N flows (N+ means at least N)
//        [--assert "SQL"]...                         first cell of the first row must be truthy
//        [--sql "SQL"]...                            extra queries, results added to the report
//
// Exit 0 when the trace loads, the engine records no error or data-loss statistic, no slice is
// left open, and every expectation holds; 1 otherwise (reasons under "failures"); 2 on bad usage.
// The engine comes from scripts/trace-check/install (default location below, or --assets).
//
// How it runs the engine: engine_bundle.node.js is the UI's Web Worker script. It is evaluated
// here with just enough of a worker's globals (self, location, a synchronous XMLHttpRequest that
// reads the .wasm from disk), then handed one end of a MessageChannel exactly as the UI does
// with its worker; EngineBase from engine.mjs speaks the RPC protocol on the other end.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';

function usage(msg) {
  if (msg) process.stderr.write(`perfetto_check: ${msg}\n`);
  process.stderr.write('usage: perfetto_check.mjs TRACE [--assets DIR] [--expect-thread P/T]... ' +
                       '[--expect-counter P/C]... [--expect-flows N] [--assert SQL]... [--sql SQL]...\n');
  process.exit(2);
}

// ---- command line -------------------------------------------------------------------------
const opt = { threads: [], counters: [], asserts: [], sql: [], flows: null, trace: null, assets: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
  if (a === '--expect-thread') opt.threads.push(value());
  else if (a === '--expect-counter') opt.counters.push(value());
  else if (a === '--assert') opt.asserts.push(value());
  else if (a === '--sql') opt.sql.push(value());
  else if (a === '--expect-flows') opt.flows = value();
  else if (a === '--assets') opt.assets = value();
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else if (opt.trace === null) opt.trace = a;
  else usage(`unexpected argument ${a}`);
}
if (opt.trace === null) usage('no trace file given');
if (opt.flows !== null && !/^\d+\+?$/.test(opt.flows)) usage('--expect-flows takes N or N+');
for (const e of [...opt.threads, ...opt.counters]) {
  if (!e.includes('/')) usage(`expectation "${e}" is not "Process/Name"`);
}
const cacheHome = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || '/tmp', '.cache');
const assets = opt.assets || process.env.NPUSIM_TRACE_CHECK_ASSETS ||
  path.join(process.env.NPUSIM_TRACE_CHECK_CACHE || path.join(cacheHome, 'npusim-trace-check'),
            'package', 'assets', 'trace-processor');
for (const f of ['engine.mjs', 'engine_bundle.node.js', 'trace_processor.wasm']) {
  if (!fs.existsSync(path.join(assets, f))) {
    process.stderr.write(`perfetto_check: ${path.join(assets, f)} missing; run scripts/trace-check/install\n`);
    process.exit(1);
  }
}
let traceBytes;
try {
  traceBytes = fs.readFileSync(opt.trace);
} catch (e) {
  process.stderr.write(`perfetto_check: cannot read ${opt.trace}: ${e.message}\n`);
  process.exit(1);
}

// ---- start the engine -----------------------------------------------------------------------
// V8 compiles the 13 MB engine with its baseline compiler, then re-optimises it on background
// threads that compete with the load and that process exit waits for. Measured here, baseline
// code alone is faster end to end even for a 32 MB trace (2.7 s against 6.5 s).
v8.setFlagsFromString('--liftoff-only');
// What trace_processor prints (its stderr goes to console.warn, stdout to console.log) is kept
// for the report instead of mixing with ours.
const engineLog = [];
console.log = (...a) => engineLog.push(a.join(' '));
console.warn = (...a) => engineLog.push(a.join(' '));

// A synchronous XMLHttpRequest for the Emscripten loader, which fetches its .wasm that way in a
// worker. Relative URLs are resolved against the assets folder.
class FileXhr {
  open(method, url) { this.url = url; }
  send() {
    const file = path.resolve(assets, decodeURIComponent(new URL(this.url, pathToFileURL(assets + '/')).pathname));
    const b = fs.readFileSync(file);
    this.response = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    this.status = 200;
  }
}

globalThis.self = globalThis;
globalThis.WorkerGlobalScope = class WorkerGlobalScope {};
globalThis.location = new URL(pathToFileURL(path.join(assets, 'engine_bundle.js')).href);
globalThis.XMLHttpRequest = FileXhr;

// Only the 32-bit (memory32) engine is shipped. The bundle chooses the 64-bit one when it can
// compile a memory64 probe, so while it initialises, refuse that probe (newer Node has memory64).
const RealModule = WebAssembly.Module;
WebAssembly.Module = function Module(bytes) {
  const u8 = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
                                       : new Uint8Array(bytes);
  if (u8.length < 64 && u8[8] === 0x05 && u8[11] === 0x04) throw new WebAssembly.CompileError('memory64 disabled');
  return new RealModule(bytes);
};
WebAssembly.Module.prototype = RealModule.prototype;
const tStart = performance.now();
try {
  vm.runInThisContext(fs.readFileSync(path.join(assets, 'engine_bundle.node.js'), 'utf8'),
                      { filename: path.join(assets, 'engine_bundle.node.js') });
} finally {
  WebAssembly.Module = RealModule;
}
if (typeof globalThis.onmessage !== 'function') {
  process.stderr.write('perfetto_check: engine_bundle.node.js did not install a worker message handler\n');
  process.exit(1);
}
// The wasm is compiled synchronously above; its runtime finishes initialising in promise
// callbacks, which have all run once a timer fires.
await new Promise((resolve) => setTimeout(resolve, 0));

const { EngineBase } = await import(pathToFileURL(path.join(assets, 'engine.mjs')).href);

class NodeEngine extends EngineBase {
  id = 'npusim-node';
  mode = 'WASM';
  constructor(port) {
    super();
    this.port = port;
    port.onmessage = (msg) => this.onRpcResponseBytes(msg.data);
  }
  rpcSendRequestBytes(bytes) { this.port.postMessage(bytes); }
}
const channel = new MessageChannel();
globalThis.onmessage({ data: channel.port1 });  // what the UI's postMessage(port) delivers
const engine = new NodeEngine(channel.port2);
const tReady = performance.now();

// ---- load the trace --------------------------------------------------------------------------
const report = { trace: opt.trace, bytes: traceBytes.length, engine: 'Perfetto trace_processor (wasm, v55.3)' };
const failures = [];
// The engine accepts an empty file as an empty trace; for us that is a failure.
if (traceBytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) failures.push('trace file is empty');
try {
  const chunk = 8 << 20;
  for (let off = 0; off < traceBytes.length; off += chunk) {
    await engine.parse(new Uint8Array(traceBytes.subarray(off, off + chunk)));
  }
  await engine.notifyEof();
} catch (e) {
  failures.push(`load failed: ${e && e.message ? e.message : e}`);
}
const tLoaded = performance.now();

// Runs SQL; returns rows as plain objects, or {error}.
async function rows(sql) {
  try {
    const res = await engine.query(sql);
    if (res.error()) return { error: res.error() };
    const cols = res.columns();
    const out = [];
    for (const it = res.iter({}); it.valid(); it.next()) {
      const r = {};
      for (const c of cols) {
        const v = it.get(c);
        r[c] = typeof v === 'bigint' ? Number(v) : v;
      }
      out.push(r);
    }
    return out;
  } catch (e) {
    return { error: String(e && e.message ? e.message : e).split('\n')[0] };
  }
}
async function table(name, sql) {
  const r = await rows(sql);
  if (!Array.isArray(r)) {
    failures.push(`query for ${name} failed: ${r.error}`);
    return [];
  }
  return r;
}

if (!failures.some((f) => f.startsWith('load failed'))) {
  report.summary = (await table('summary', `SELECT
      (SELECT count(*) FROM slice) AS slices,
      (SELECT count(*) FROM slice WHERE dur < 0) AS unfinished_slices,
      (SELECT count(*) FROM counter) AS counter_values,
      (SELECT count(*) FROM flow) AS flows,
      (SELECT min(ts) FROM slice) AS first_ts_ns,
      (SELECT max(ts + dur) FROM slice) AS last_end_ns`))[0] || {};
  report.processes = await table('processes',
    `SELECT pid, name FROM process WHERE upid != 0 ORDER BY pid`);
  // Threads without a name or slices are the implicit tid = pid threads of JSON traces.
  report.threads = await table('threads', `
    SELECT * FROM (
      SELECT p.name AS process, t.name AS thread, t.tid,
             (SELECT count(*) FROM thread_track tt JOIN slice s ON s.track_id = tt.id
               WHERE tt.utid = t.utid) AS slices,
             (SELECT max(s.depth) FROM thread_track tt JOIN slice s ON s.track_id = tt.id
               WHERE tt.utid = t.utid) AS max_depth
      FROM thread t LEFT JOIN process p USING (upid) WHERE t.utid != 0 ORDER BY p.pid, t.tid)
    WHERE thread IS NOT NULL OR slices > 0`);
  report.counter_tracks = await table('counter tracks', `
    SELECT p.name AS process, ct.name AS track, count(c.id) AS samples,
           min(c.value) AS min, max(c.value) AS max
    FROM process_counter_track ct LEFT JOIN process p USING (upid)
    LEFT JOIN counter c ON c.track_id = ct.id GROUP BY ct.id ORDER BY p.pid, ct.name`);
  report.async_tracks = await table('async tracks', `
    SELECT p.name AS process, pt.name AS track, count(s.id) AS slices
    FROM process_track pt LEFT JOIN process p USING (upid) JOIN slice s ON s.track_id = pt.id
    GROUP BY pt.id ORDER BY p.pid, pt.name`);
  report.flows = await table('flows', `
    SELECT o.name AS from_slice, i.name AS to_slice, count(*) AS n
    FROM flow f JOIN slice o ON f.slice_out = o.id JOIN slice i ON f.slice_in = i.id
    GROUP BY o.name, i.name ORDER BY o.name, i.name`);
  report.problems = await table('stats', `
    SELECT name, idx, severity, source, value, description FROM stats
    WHERE value != 0 AND severity IN ('error', 'data_loss') ORDER BY name, idx`);
  for (const q of opt.sql) report[`sql: ${q}`] = await rows(q);

  for (const p of report.problems) failures.push(`engine ${p.severity} stat ${p.name} = ${p.value}: ${p.description}`);
  if (report.summary.unfinished_slices > 0) failures.push(`${report.summary.unfinished_slices} slices never end`);
  const split = (e) => [e.slice(0, e.indexOf('/')), e.slice(e.indexOf('/') + 1)];
  for (const e of opt.threads) {
    const [p, t] = split(e);
    if (!report.threads.some((r) => r.process === p && r.thread === t && r.slices > 0)) {
      failures.push(`expected thread track "${e}" with slices; have: ` +
                    report.threads.map((r) => `${r.process}/${r.thread} (${r.slices})`).join(', '));
    }
  }
  for (const e of opt.counters) {
    const [p, c] = split(e);
    if (!report.counter_tracks.some((r) => r.process === p && r.track === c && r.samples > 0)) {
      failures.push(`expected counter track "${e}" with values; have: ` +
                    report.counter_tracks.map((r) => `${r.process}/${r.track} (${r.samples})`).join(', '));
    }
  }
  if (opt.flows !== null) {
    const n = report.summary.flows;
    const want = parseInt(opt.flows, 10);
    if (opt.flows.endsWith('+') ? n < want : n !== want) failures.push(`expected ${opt.flows} flows, engine has ${n}`);
  }
  for (const q of opt.asserts) {
    const r = await rows(q);
    if (!Array.isArray(r)) failures.push(`assert query failed (${r.error}): ${q}`);
    else if (r.length === 0 || !Object.values(r[0])[0]) {
      failures.push(`assert is false (${r.length ? JSON.stringify(Object.values(r[0])[0]) : 'no rows'}): ${q}`);
    }
  }
}
const tDone = performance.now();
report.timing_ms = { engine_start: Math.round(tReady - tStart), load: Math.round(tLoaded - tReady),
                     queries: Math.round(tDone - tLoaded) };
const noise = /^(Unexpected QueryResult field|warning: unsupported syscall: __syscall_mprotect|\rLoading trace)/;
const log = engineLog.filter((l) => !noise.test(l));
if (log.length) report.engine_log = log.slice(-30);
report.failures = failures;
// On a pipe, stdout is asynchronous: exiting before the write has drained cuts the report at
// 64 KiB. Exit only once both writes have been handed to the OS.
const drained = (stream, text) => new Promise((resolve) => stream.write(text, resolve));
await drained(process.stdout, JSON.stringify(report, null, 2) + '\n');
if (failures.length) await drained(process.stderr, `perfetto_check: FAILED: ${opt.trace}\n  ${failures.join('\n  ')}\n`);
channel.port1.close();
channel.port2.close();
process.exit(failures.length ? 1 : 0);
