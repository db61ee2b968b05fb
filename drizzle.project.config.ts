import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "sqlite", schema: "./src/storage/project/schema.ts", out: "./src/storage/project/migrations" });
