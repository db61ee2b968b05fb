ALTER TABLE `bulk_batches` ADD `locales` text;--> statement-breakpoint
ALTER TABLE `entries` ADD `locale_state` text;--> statement-breakpoint
ALTER TABLE `field_change_rows` ADD `locale_state` text;--> statement-breakpoint
ALTER TABLE `scheduled_actions` ADD `locales` text;