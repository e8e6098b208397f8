CREATE TABLE "push_subscriptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "alert_event_id" bigint;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "service_id" bigint;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_account_id_endpoint_index" ON "push_subscriptions" USING btree ("account_id","endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_id_index" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD CONSTRAINT "alert_notification_list_service_id_alert_notification_settings_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."alert_notification_settings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_notification_list_account_id_dedupe_key_channel_recipient_index" ON "alert_notification_list" USING btree ("account_id","dedupe_key","channel","recipient");--> statement-breakpoint
CREATE INDEX "alert_notification_list_due_idx" ON "alert_notification_list" USING btree ("next_attempt_at") WHERE "alert_notification_list"."status" in ('queued', 'failed');