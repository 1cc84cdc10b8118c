/**
 * The `server` bench's call answered N times through a real node:http server on an in-memory socket, the client in
 * process: no syscalls, so valgrind counts the request path alone. Instructions per request are the difference
 * between two runs over the difference in N, e.g.
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/server-instructions.ts logged 20000
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/server-instructions.ts logged 30000
 * Targets: `json` (e), `mock` (a), `logged` (f, its lines to a writer that drops them), `stub` (b, the generated
 * server with validation and a handler answering the example's result). With IDLE_STEPS=1 the mock
 * first takes the steps a served node takes while idle (mock/when-idle.ts), as the `server` bench's nodes do between
 * its rounds: the C-Chain's modules, EDR and its engine.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type RequestListener, createServer } from 'node:http';
import { duplexPair } from 'node:stream';

const [target = 'logged', count = '10000'] = process.argv.slice(2);
const DOCUMENT = readFileSync(new URL('../generated/openrpc/x-chain.json', import.meta.url), 'utf8');
type Example = { params: Array<{ name: string; value: unknown }>; result: { value: unknown } };
const EXAMPLE = (JSON.parse(DOCUMENT) as { methods: Array<{ name: string; examples: Example[] }> }).methods.find(
  (m) => m.name === 'avm.getBalance',
)!.examples[0]!;
const RESULT = EXAMPLE.result.value;
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'avm.getBalance',
  params: Object.fromEntries(EXAMPLE.params.map((p) => [p.name, p.value])),
});

let server: ReturnType<typeof createServer>;
if (target === 'json') {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
      const answer = `${JSON.stringify({ jsonrpc: '2.0', result: RESULT, id })}\n`;
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(answer)),
      });
      res.end(answer);
    });
  });
} else if (target === 'stub') {
  const stub = await import('../generated/server/dist/index.js');
  const handlers = Object.fromEntries(stub.xChainMethods.map((m) => [m.handler, () => RESULT]));
  const endpoint = stub.createXChainEndpoint(handlers as never);
  server = createServer(stub.createRouter({ '/ext/bc/X': endpoint }).node as never);
} else {
  const { createMockNode } = await import('../mock/node.ts');
  const { createHttpServer } = await import('../mock/server.ts');
  const { lineWriter } = await import('../mock/log-lines.ts');
  const lines = lineWriter(() => undefined);
  const log = target === 'logged' ? { log: (line: string) => lines.logTimed(line) } : {};
  const node = createMockNode({ world: { network: 'mainnet' }, ...log });
  if (process.env.IDLE_STEPS) {
    const { C_CHAIN_MODULES } = await import('../mock/lazy-cchain.ts');
    // Older commits had no idle steps, then one list; now the loads, which include every module the slices import.
    type Steps = Array<() => unknown>;
    const cChain = node.state.cChain as unknown as { idleSteps?: () => Steps | { loads: Steps } };
    const steps = cChain.idleSteps?.() ?? [...C_CHAIN_MODULES];
    for (const step of 'loads' in steps ? steps.loads : steps) await step();
  }
  server = createHttpServer(node.listener as RequestListener);
}

const request = Buffer.from(
  `POST /ext/bc/X HTTP/1.1\r\nHost: 127.0.0.1:9650\r\nContent-Type: application/json\r\nContent-Length: ` +
    `${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
);
const [serverSide, client] = duplexPair();
server.emit('connection', serverSide);
let left = Number(count);
const half = Math.floor(left / 2);
let buffer: Buffer = Buffer.alloc(0);
let first = '';
let secondHalf: NodeJS.CpuUsage | undefined;
client.on('data', (chunk: Buffer) => {
  buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = /\r\ncontent-length: *(\d+)/i.exec(buffer.subarray(0, end).toString('latin1'))?.[1];
    const size = end + 4 + Number(length);
    if (buffer.length < size) return;
    first ||= buffer.subarray(0, size).toString();
    buffer = buffer.subarray(size);
    if (left - 1 === half) {
      if (process.env.CALLGRIND_MARK) pauseForDump(process.env.CALLGRIND_MARK);
      secondHalf = process.cpuUsage();
    }
    if (--left === 0) {
      const cpu = process.cpuUsage(secondHalf);
      // Without valgrind: the process's CPU time (every thread) per request over the second half.
      if (process.env.CPU_REPORT) console.error(`${((cpu.user + cpu.system) / half).toFixed(2)} µs`);
      console.log(first);
      process.exit(0);
    }
    client.write(request);
  }
});
client.write(request);

/**
 * Halfway, waits for `callgrind_control --dump` (run by whoever watches for `<mark>.ready`, then creating
 * `<mark>.done`): the second dump then holds the second half's requests alone, JIT warm-up and start-up left out.
 */
function pauseForDump(mark: string): void {
  writeFileSync(`${mark}.ready`, '');
  const wait = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(`${mark}.done`)) Atomics.wait(wait, 0, 0, 20);
}
