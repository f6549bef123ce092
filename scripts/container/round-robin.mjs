// One port in front of several replicas, each request to the next in turn: the smoke test's
// stand-in for the load balancer of compose.yaml (nginx), so that one buyer's consecutive steps
// are served by different servers. Plain node, no dependencies.
//
//   node scripts/container/round-robin.mjs PORT http://127.0.0.1:3101 http://127.0.0.1:3102
import { request, createServer } from "node:http";

const [port, ...upstreams] = process.argv.slice(2);
if (!port || upstreams.length === 0) {
  console.error("Usage: round-robin.mjs PORT UPSTREAM...");
  process.exit(2);
}
const served = upstreams.map(() => 0);
let next = 0;

createServer((incoming, outgoing) => {
  const index = next;
  next = (next + 1) % upstreams.length;
  served[index] += 1;
  const target = new URL(incoming.url ?? "/", upstreams[index]);
  const forwarded = request(
    target,
    { method: incoming.method, headers: { ...incoming.headers, "x-forwarded-for": incoming.socket.remoteAddress } },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on("error", (error) => {
    outgoing.writeHead(502, { "content-type": "text/plain" });
    outgoing.end(`upstream ${upstreams[index]}: ${error.message}\n`);
  });
  incoming.pipe(forwarded);
}).listen(Number(port), "127.0.0.1", () => console.log(`round-robin on ${port} over ${upstreams.join(", ")}`));

// On SIGTERM, say how the requests were spread: the smoke test checks each replica served some.
process.on("SIGTERM", () => {
  console.log(`served: ${upstreams.map((upstream, i) => `${upstream} ${served[i]}`).join(", ")}`);
  process.exit(0);
});
