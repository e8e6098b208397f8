CREATE TABLE "overrides" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "overrides_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"level" integer NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"street" text,
	"region_id" bigint,
	"device_ids" jsonb NOT NULL,
	"device_count" integer NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "channel_write_values" ADD COLUMN "confirmed" boolean;--> statement-breakpoint
ALTER TABLE "channel_write_values" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "operation" text;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "version" integer;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "reported_version" integer;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "task_group_id" bigint;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "command" jsonb;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "downlink_id" text;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "overrides" ADD CONSTRAINT "overrides_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overrides" ADD CONSTRAINT "overrides_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "overrides_account_id_created_at_index" ON "overrides" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "overrides_status_until_index" ON "overrides" USING btree ("status","until");--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD CONSTRAINT "deploy_response_logs_task_group_id_task_groups_id_fk" FOREIGN KEY ("task_group_id") REFERENCES "public"."task_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deploy_response_logs_device_id_status_index" ON "deploy_response_logs" USING btree ("device_id","status");--> statement-breakpoint
CREATE INDEX "deploy_response_logs_status_next_attempt_at_index" ON "deploy_response_logs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "deploy_response_logs_batch_id_index" ON "deploy_response_logs" USING btree ("batch_id");