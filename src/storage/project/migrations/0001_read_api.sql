CREATE TABLE `page_reads` (
	`page` text PRIMARY KEY NOT NULL,
	`paths` text DEFAULT '[]' NOT NULL,
	`schemas` text DEFAULT '[]' NOT NULL,
	`models` text DEFAULT '[]' NOT NULL,
	`entries` text DEFAULT '[]' NOT NULL,
	`queries` text DEFAULT '[]' NOT NULL,
	`last_seen_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `preview_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`entry_ids` text,
	`model_id` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preview_tokens_hash` ON `preview_tokens` (`token_hash`);--> statement-breakpoint
ALTER TABLE `entries` ADD `draft_keys` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `entries` ADD `published_keys` text;--> statement-breakpoint
CREATE INDEX `entries_pub_created` ON `entries` (`model_id`,`created_at`,`id`) WHERE published_version_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `entries_pub_updated` ON `entries` (`model_id`,`published_updated_at`,`id`) WHERE published_version_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `entries_pub_published` ON `entries` (`model_id`,`published_at`,`id`) WHERE published_version_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `entries_model_published` ON `entries` (`model_id`,`published_at`,`id`);