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
ALTER TABLE "deploy_response_logs" ADD CONSTRAINT "deploy_response_logs_task_group_id_task_groups_id_fk" FOREIGN KEY ("task_group_id") REFERENCES "public"."task_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deploy_response_logs_device_id_status_index" ON "deploy_response_logs" USING btree ("device_id","status");--> statement-breakpoint
CREATE INDEX "deploy_response_logs_status_next_attempt_at_index" ON "deploy_response_logs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "deploy_response_logs_batch_id_index" ON "deploy_response_logs" USING btree ("batch_id");