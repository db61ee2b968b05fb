// The one Error schema of each surface (interface.md, Errors), as both documents reference them:
// the /api envelope and the /v2 body. Both are rendered from the error catalogue (src/errors.ts),
// so the codes listed are the codes the server can send.
import { Type } from "@sinclair/typebox";
import { CATALOGUE } from "../../errors.ts";

/** The /v2 body: a sentence, usually a code, and extras such as `field`, `path`, `required`. */
export const ManagementError = Type.Object(
  {
    error: Type.String({ description: "One sentence saying what is wrong." }),
    code: Type.Optional(Type.String({ description: "The value to branch on; absent on the few bare sentences of interface.md." })),
    field: Type.Optional(Type.String({ description: "The body field or parameter at fault, e.g. `targets[0].id`." })),
  },
  { $id: "Error", description: "A /v2 refusal. Some codes add keys of their own (`path`, `required`, `current`, `entries`, `limit`, ...)." },
);

/** The `meta` of an /api answer. */
const ErrorMeta = Type.Object({
  version: Type.String({ description: "The version served." }),
  contract: Type.Integer({ description: "The data contract, 1." }),
  requestId: Type.String(),
});

/** The /api envelope of a refusal: never a `data` key beside `error`. */
export const ApiError = Type.Object(
  {
    error: Type.Object({
      type: Type.String({ description: "The class of problem, stable per status." }),
      code: Type.String({ enum: Object.keys(CATALOGUE), description: "The value to branch on." }),
      message: Type.String({ description: "One sentence." }),
      param: Type.Optional(Type.String({ description: "The header, query parameter or body field at fault." })),
      hint: Type.Optional(Type.String({ description: "What to do next." })),
      docs: Type.String({ description: "The page of the code under /docs/errors/." }),
    }),
    meta: ErrorMeta,
  },
  { $id: "Error", description: "An /api refusal (interface.md, Errors)." },
);
