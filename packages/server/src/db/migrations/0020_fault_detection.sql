ALTER TABLE "alert_logs" ADD COLUMN "gateway_id" bigint;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD COLUMN "gateway_euis" text[];--> statement-breakpoint
ALTER TABLE "device_models" ADD COLUMN "nominal_voltage" double precision;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "source" text DEFAULT 'reported' NOT NULL;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "alert_log_id" bigint;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "rule_code" text;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD CONSTRAINT "alert_logs_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD CONSTRAINT "fault_reports_alert_log_id_alert_logs_id_fk" FOREIGN KEY ("alert_log_id") REFERENCES "public"."alert_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_logs_active_gateway" ON "alert_logs" USING btree ("gateway_id","kind") WHERE "alert_logs"."is_active" AND "alert_logs"."gateway_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "fault_reports_device_id_rule_code_index" ON "fault_reports" USING btree ("device_id","rule_code");