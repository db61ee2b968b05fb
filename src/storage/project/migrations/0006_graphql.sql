CREATE TABLE `graphql_persisted_queries` (
	`hash` text PRIMARY KEY NOT NULL,
	`query` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `graphql_persisted_queries_used` ON `graphql_persisted_queries` (`last_used_at`);