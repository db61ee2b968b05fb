import { startApp } from "./test/harness.ts";
const h = startApp();
const r = await h.json("GET", "/v2/openapi.json");
console.log(r.status, JSON.stringify(r.body).length, Object.keys(r.body.paths).length);
console.log(JSON.stringify(r.body.paths["/v2/tenants/api-keys/{id}/rotate"], null, 1));
h.close();
