// The baseline: a bare Bun.serve answering fixed bytes (read from a file) with the same headers shape.
const body = await Bun.file(process.argv[2]!).bytes();
const server = Bun.serve({
  port: 0,
  reusePort: false,
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": "application/json", "cache-control": "public, max-age=60" } }),
});
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}` })}`);
export {};
