CREATE TABLE `entries` (
	`id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`draft_version_id` text NOT NULL,
	`draft_version` integer NOT NULL,
	`draft_data` text NOT NULL,
	`draft_tags` text DEFAULT '[]' NOT NULL,
	`draft_folder` text,
	`published_version_id` text,
	`published_version` integer,
	`published_data` text,
	`published_tags` text,
	`published_folder` text,
	`published_at` text,
	`published_updated_at` text
);
--> statement-breakpoint
CREATE INDEX `entries_model_created` ON `entries` (`model_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `entries_model_updated` ON `entries` (`model_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `entry_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`entry_id` text NOT NULL,
	`number` integer NOT NULL,
	`data` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`folder` text,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entry_versions_entry_number` ON `entry_versions` (`entry_id`,`number`);--> statement-breakpoint
CREATE TABLE `model_versions` (
	`model_id` text NOT NULL,
	`version` integer NOT NULL,
	`snapshot` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`model_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `models` (
	`id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`single_entry` integer DEFAULT false NOT NULL,
	`fields` text DEFAULT '[]' NOT NULL,
	`layout` text,
	`embed_by_default` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `models_namespace` ON `models` (`namespace`);--> statement-breakpoint
CREATE TABLE `settings` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
