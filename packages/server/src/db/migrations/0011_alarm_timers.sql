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
ALTER TABLE "alarm_timers" ADD CONSTRAINT "alarm_timers_alert_log_id_alert_logs_id_fk" FOREIGN KEY ("alert_log_id") REFERENCES "public"."alert_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_timers" ADD CONSTRAINT "alarm_timers_alert_event_id_alert_events_id_fk" FOREIGN KEY ("alert_event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_timers_key" ON "alarm_timers" USING btree ("alert_log_id",coalesce("alert_event_id", 0));--> statement-breakpoint
CREATE INDEX "alarm_timers_due_at_index" ON "alarm_timers" USING btree ("due_at");