ALTER TABLE "alert_logs" ADD COLUMN "channel_template_id" bigint;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "sub_channel" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "kind" text DEFAULT 'threshold' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "unit" text;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "acknowledged_by" bigint;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "cleared_by" bigint;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "clear_reason" text;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "comment" text;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "shelved_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD CONSTRAINT "alert_logs_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD CONSTRAINT "alert_logs_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD CONSTRAINT "alert_logs_cleared_by_users_id_fk" FOREIGN KEY ("cleared_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Rows from before the lifecycle: an inactive one is cleared; of several active ones for the same
-- device and template only the newest stays active, so the unique index below can be built.
UPDATE "alert_logs" SET "state" = 'cleared' WHERE NOT "is_active";--> statement-breakpoint
UPDATE "alert_logs" SET "is_active" = false, "state" = 'cleared', "cleared_at" = now(), "clear_reason" = 'operator'
  WHERE "is_active" AND "id" NOT IN (
    SELECT max("id") FROM "alert_logs" WHERE "is_active" GROUP BY "device_id", coalesce("template_id", 0)
  );--> statement-breakpoint
CREATE UNIQUE INDEX "alert_logs_active_key" ON "alert_logs" USING btree ("device_id",coalesce("channel_template_id", 0),"sub_channel",coalesce("template_id", 0),"kind") WHERE "alert_logs"."is_active";--> statement-breakpoint
CREATE INDEX "alert_logs_account_id_is_active_alert_level_index" ON "alert_logs" USING btree ("account_id","is_active","alert_level");