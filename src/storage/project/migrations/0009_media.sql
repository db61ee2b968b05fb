CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`filename` text NOT NULL,
	`kind` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`duration` real,
	`alt` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`folder_id` text,
	`focal_point` text,
	`checksum` text NOT NULL,
	`placeholder` text,
	`storage_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_seq` ON `media` (`seq`);--> statement-breakpoint
CREATE INDEX `media_folder_seq` ON `media` (`folder_id`,`seq`);--> statement-breakpoint
CREATE INDEX `media_kind_seq` ON `media` (`kind`,`seq`);--> statement-breakpoint
CREATE TABLE `media_backups` (
	`media_id` text PRIMARY KEY NOT NULL,
	`storage_key` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`done_at` text
);
--> statement-breakpoint
CREATE INDEX `media_backups_due` ON `media_backups` (`next_attempt_at`) WHERE state = 'pending';--> statement-breakpoint
CREATE TABLE `media_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`parent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_folders_parent` ON `media_folders` (`parent_id`);