CREATE TABLE `bulk_batch_items` (
	`batch_id` text NOT NULL,
	`position` integer NOT NULL,
	`entry_id` text NOT NULL,
	`result` text,
	`error` text,
	PRIMARY KEY(`batch_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `bulk_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`action` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`selection` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`principal` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`principal`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `scheduled_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`batch_id` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`version_id` text,
	`wall_time` text NOT NULL,
	`timezone` text NOT NULL,
	`run_at` text NOT NULL,
	`offset` text NOT NULL,
	`note` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`claimed_at` text,
	`claim_token` text,
	`last_error` text,
	`last_failed_at` text,
	`replaced` text DEFAULT '[]' NOT NULL,
	`replaced_by` text,
	`retry_of` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `scheduled_actions_status_run` ON `scheduled_actions` (`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `scheduled_actions_target` ON `scheduled_actions` (`target_id`,`action`,`status`);--> statement-breakpoint
CREATE INDEX `scheduled_actions_batch` ON `scheduled_actions` (`batch_id`);--> statement-breakpoint
CREATE INDEX `scheduled_actions_retry_of` ON `scheduled_actions` (`retry_of`);