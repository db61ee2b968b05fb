CREATE TABLE `saved_views` (
	`id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	`name` text NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`columns` text NOT NULL,
	`sort` text,
	`where_json` text,
	`search` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saved_views_model` ON `saved_views` (`model_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `media` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `media_checksum` ON `media` (`checksum`);--> statement-breakpoint
ALTER TABLE `webhook_attempts` ADD `request_headers` text;--> statement-breakpoint
ALTER TABLE `webhook_attempts` ADD `response_headers` text;--> statement-breakpoint
CREATE INDEX `entry_versions_by` ON `entry_versions` (`created_by`,`created_at`);