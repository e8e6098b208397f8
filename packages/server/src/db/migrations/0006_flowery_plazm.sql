ALTER TABLE "channel_write_values" ADD COLUMN "downlink_id" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "mqtt_password_encrypted" text;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_write_values_downlink_id_index" ON "channel_write_values" USING btree ("downlink_id");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_dev_eui_format" CHECK ("devices"."dev_eui" ~ '^[0-9a-f]{16}$');