CREATE TABLE "alarm_timers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarm_timers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"alert_log_id" bigint NOT NULL,
	"alert_event_id" bigint,
	"due_at" timestamp with time zone NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone,
	"window_count" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "alarm_timers" ADD CONSTRAINT "alarm_timers_alert_log_id_alert_logs_id_fk" FOREIGN KEY ("alert_log_id") REFERENCES "public"."alert_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_timers" ADD CONSTRAINT "alarm_timers_alert_event_id_alert_events_id_fk" FOREIGN KEY ("alert_event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_timers_key" ON "alarm_timers" USING btree ("alert_log_id",coalesce("alert_event_id", 0));--> statement-breakpoint
CREATE INDEX "alarm_timers_due_at_index" ON "alarm_timers" USING btree ("due_at");--> statement-breakpoint
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