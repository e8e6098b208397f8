DROP INDEX "channel_read_values_device_id_device_channel_template_id_frame_key_date_time_index";--> statement-breakpoint
DROP INDEX "channel_read_values_account_id_device_id_date_time_index";--> statement-breakpoint
DROP INDEX "channel_values_device_id_device_channel_template_id_index";--> statement-breakpoint
ALTER TABLE "channel_read_values" ALTER COLUMN "sub_channel" SET DEFAULT 0;--> statement-breakpoint
-- Readings stored before sub-channels were decoded belong to the channel itself.
UPDATE "channel_read_values" SET "sub_channel" = 0 WHERE "sub_channel" IS NULL;--> statement-breakpoint
ALTER TABLE "channel_read_values" ALTER COLUMN "sub_channel" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_values" ADD COLUMN "sub_channel" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A frame key is an identifier: compared byte for byte, as the unique index below checks it on every reading.
ALTER TABLE "channel_read_values" ALTER COLUMN "frame_key" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
CREATE UNIQUE INDEX "channel_read_values_device_id_device_channel_template_id_sub_channel_date_time_frame_key_index" ON "channel_read_values" USING btree ("device_id","device_channel_template_id","sub_channel","date_time","frame_key");--> statement-breakpoint
CREATE INDEX "channel_read_values_account_id_date_time_index" ON "channel_read_values" USING btree ("account_id","date_time");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_values_device_id_device_channel_template_id_sub_channel_index" ON "channel_values" USING btree ("device_id","device_channel_template_id","sub_channel");