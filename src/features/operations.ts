// Operations: /healthz, /metrics, the error pages under /docs/errors, and Litestream's monitor.
import { Elysia } from "elysia";
import { AppError, docsPage } from "../errors.ts";
import { healthRoutes } from "../http/health.ts";
import { metricsRoutes } from "../http/metrics.ts";
import type { Feature } from "./feature.ts";

export const operations: Feature = ({ s, jobs, replication }) => {
  if (replication.enabled) jobs.add({ name: "replication", pattern: "* * * * * *", run: (now) => replication.tick(now) });
  const routes = new Elysia()
    .get("/docs/errors/:code", ({ params }) => {
      const page = docsPage(params.code);
      if (!page) throw new AppError("route_not_found");
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=3600" } });
    })
    .use(healthRoutes(s, { jobs, replication }))
    .use(metricsRoutes(s, { replication }));
  return { routes };
};
