// A loopback HTTPS webhook receiver for `bench webhooks`, in its own process so it does not share
// the sender's thread: answers 204 to every POST and counts them per path; GET /count answers the counts.
const [cert, key] = [await Bun.file(process.argv[2]!).text(), await Bun.file(process.argv[3]!).text()];
const counts: Record<string, number> = {};
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  reusePort: false,
  tls: { cert, key },
  fetch: async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") return Response.json(counts);
    await req.arrayBuffer();
    counts[path] = (counts[path] ?? 0) + 1;
    return new Response(null, { status: 204 });
  },
});
console.log(`READY ${JSON.stringify({ url: `https://127.0.0.1:${server.port}` })}`);
export {};
