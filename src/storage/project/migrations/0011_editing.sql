ALTER TABLE `bulk_batch_items` ADD `errors` text;--> statement-breakpoint
ALTER TABLE `entries` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `entries` ADD `deleted_by` text;--> statement-breakpoint
CREATE INDEX `entries_trash` ON `entries` (`deleted_at`,`id`) WHERE deleted_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `entry_versions` ADD `autosave` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `scheduled_actions` ADD `last_errors` text;