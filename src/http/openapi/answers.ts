// The answer model of both OpenAPI routes: an OpenAPI 3.1 document (its full schema is the
// OpenAPI Initiative's; only the top keys are named here).
import { Type } from "@sinclair/typebox";

export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ description: "3.1.0" }),
    info: Type.Object({ title: Type.String(), version: Type.String() }),
    paths: Type.Record(Type.String(), Type.Object({})),
    components: Type.Object({}),
  },
  { $id: "OpenApiDocument", description: "An OpenAPI 3.1 document." },
);
