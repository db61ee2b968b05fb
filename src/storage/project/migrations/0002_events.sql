CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`occurred_at` text NOT NULL,
	`body` text NOT NULL,
	`content` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_seq` ON `events` (`seq`);