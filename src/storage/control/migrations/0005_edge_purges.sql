CREATE TABLE `edge_purges` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target` text NOT NULL,
	`tags` text NOT NULL,
	`created_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `edge_purges_due` ON `edge_purges` (`target`,`next_attempt_at`);