CREATE TABLE `field_change_failures` (
	`change_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`field_id` text NOT NULL,
	`copy` text NOT NULL,
	`value` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`change_id`, `entry_id`, `field_id`, `copy`)
);
--> statement-breakpoint
CREATE TABLE `field_change_rows` (
	`change_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`draft_version_id` text NOT NULL,
	`published_version_id` text,
	`draft_data` text NOT NULL,
	`draft_keys` text NOT NULL,
	`published_data` text,
	`published_keys` text,
	PRIMARY KEY(`change_id`, `entry_id`)
);
--> statement-breakpoint
CREATE TABLE `field_change_versions` (
	`change_id` text NOT NULL,
	`version_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`change_id`, `version_id`)
);
--> statement-breakpoint
CREATE INDEX `field_change_versions_entry` ON `field_change_versions` (`change_id`,`entry_id`);--> statement-breakpoint
CREATE TABLE `field_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	`state` text NOT NULL,
	`plan_hash` text NOT NULL,
	`base_version` integer NOT NULL,
	`result_version` integer,
	`plan` text NOT NULL,
	`counts` text,
	`cursor_created_at` text,
	`cursor_id` text,
	`total` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `field_changes_model` ON `field_changes` (`model_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `field_changes_state` ON `field_changes` (`state`);--> statement-breakpoint
CREATE TABLE `workspace_prefs` (
	`principal` text PRIMARY KEY NOT NULL,
	`current_workspace_id` text,
	`assigned_workspace_id` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workspace_prefs_assigned` ON `workspace_prefs` (`assigned_workspace_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`icon` text,
	`visibility` text NOT NULL,
	`template` text DEFAULT 'blank' NOT NULL,
	`tree` text DEFAULT '[]' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workspaces_created` ON `workspaces` (`created_at`,`id`);