CREATE TABLE `webhook_projects` (
	`project_id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
