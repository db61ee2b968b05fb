import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "sqlite", schema: "./src/storage/control/schema.ts", out: "./src/storage/control/migrations" });
