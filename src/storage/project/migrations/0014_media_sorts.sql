CREATE INDEX `media_name_seq` ON `media` ("filename" COLLATE NOCASE,`seq`);--> statement-breakpoint
CREATE INDEX `media_size_seq` ON `media` (`size`,`seq`);--> statement-breakpoint
CREATE INDEX `media_folder_name_seq` ON `media` (`folder_id`,"filename" COLLATE NOCASE,`seq`);--> statement-breakpoint
CREATE INDEX `media_folder_size_seq` ON `media` (`folder_id`,`size`,`seq`);