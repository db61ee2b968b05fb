// Types for the read API from the document your key sees (GET /api/openapi.json): every model
// it reads, its fields typed. Run it at build time (or after a model changes); the output is a
// .d.ts that openapi-fetch, or any OpenAPI client, reads.
import { writeFile } from "node:fs/promises";
import openapiTS from "openapi-typescript";

export async function writeCapaTypes(api: string, key: string, file: string): Promise<void> {
  const res = await fetch(`${api}/api/openapi.json`, { headers: { "x-api-key": key } });
  if (!res.ok) throw new Error(`openapi.json: ${res.status}`);
  await writeFile(file, await openapiTS(await res.json()));
}
