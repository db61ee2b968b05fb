PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_webhook_deliveries` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`body` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`redelivery_of` text,
	`note` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
INSERT INTO `__new_webhook_deliveries`("seq", "id", "endpoint_id", "event_id", "event_type", "body", "status", "attempts", "next_attempt_at", "redelivery_of", "note", "created_at", "updated_at", "finished_at") SELECT "seq", "id", "endpoint_id", "event_id", "event_type", "body", "status", "attempts", "next_attempt_at", "redelivery_of", "note", "created_at", "updated_at", "finished_at" FROM `webhook_deliveries`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_webhook_deliveries` RENAME TO `webhook_deliveries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_id` ON `webhook_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`next_attempt_at`,`seq`,`endpoint_id`) WHERE status IN ('pending', 'retrying');