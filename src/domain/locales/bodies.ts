// TypeBox models of the locales body and answer (decisions.md 13). Every refusal of the body is
// `400 invalid_locale` with `path` naming the part to fix, whether the shape is wrong or a code,
// a chain or the default is (the domain checks those in service.ts, naming paths the same way).
import { Type } from "@sinclair/typebox";
import { listOf, record } from "../access/schema-kit.ts";
import { MAX_CODE_LENGTH, MAX_LOCALES } from "./codes.ts";

const Code = Type.String({
  minLength: 1,
  maxLength: MAX_CODE_LENGTH,
  error: `{field} must be a BCP 47 language tag of at most ${MAX_CODE_LENGTH} characters, such as en, de-CH or pt-BR`,
});

const Locale = Type.Object(
  {
    code: Code,
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, error: "{field} must be text of 1 to 100 characters", description: "Default: the language's English name." }),
    ),
    fallback: Type.Optional(
      Type.Array(Code, {
        maxItems: MAX_LOCALES - 1,
        error: "{field} must be a list of other locales' codes",
        description: "Other locales of the list, in the order a value is looked for when this locale has none; the default locale has none.",
      }),
    ),
  },
  {
    additionalProperties: false,
    unknown: "{field} is not part of a locale; send code, name and fallback",
    error: "{field} must be { code, name?, fallback? }",
  },
);

/** PUT /v2/locales. */
export const LocalesBody = Type.Object(
  {
    default: Type.String({ minLength: 1, maxLength: MAX_CODE_LENGTH, error: "default must be the code of one of the locales" }),
    locales: Type.Array(Locale, {
      minItems: 1,
      maxItems: MAX_LOCALES,
      error: `locales must list 1 to ${MAX_LOCALES} locales`,
      count: `locales must list 1 to ${MAX_LOCALES} locales; it lists {length}`,
    }),
  },
  {
    $id: "LocalesBody",
    additionalProperties: false,
    unknown: "{field} is not part of the locales; send default and locales",
    refusal: { code: "invalid_locale", key: "path" },
  },
);

/** The project's locales. */
export const LocalesAnswer = record(
  {
    default: Type.String(),
    locales: Type.Array(record({ code: Type.String(), name: Type.String(), fallback: Type.Array(Type.String()) })),
  },
  { $id: "Locales" },
);

/** `?force=true` on PUT: drop the values of removed locales instead of answering 409 locale_in_use. */
export const LocalesQuery = Type.Object({
  force: Type.Optional(Type.String({ enum: ["true", "false"], description: "true: drop the values of removed locales." })),
});

/** The counts of a 409 locale_in_use. */
export const LocaleUse = listOf(record({ code: Type.String(), entries: Type.Integer(), values: Type.Integer() }));
