// The query and answer of GET /v2/search (service.ts).
import { Type } from "@sinclair/typebox";
import { nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { MediaRecord, Thumbnail } from "../media/bodies.ts";

export const SearchQuery = Type.Object({
  q: Type.String({ description: "1 to 200 characters: entry titles, and media file names, titles and alt texts." }),
  limit: Type.Optional(Type.String({ description: "Results of each kind, 1 to 50 (default 10)." })),
});

export const SearchAnswer = record(
  {
    entries: Type.Array(
      record({
        id: Uuid,
        model: Type.String(),
        modelName: Type.String(),
        title: nullable(Type.String()),
        status: oneOf(["draft", "published", "changed"]),
        updatedAt: Time,
      }),
      { description: "Entries whose title holds q, most recently saved first." },
    ),
    media: Type.Array(Type.Composite([MediaRecord, Type.Object({ thumbnail: Thumbnail })]), {
      description: "Files whose name, title or alt holds q, newest first.",
    }),
  },
  { $id: "SearchAnswer" },
);
