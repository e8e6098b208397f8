CREATE TABLE "report_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"template_id" bigint,
	"period" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"columns" jsonb,
	"format" text DEFAULT 'pdf' NOT NULL,
	"schedule" text DEFAULT 'none' NOT NULL,
	"recipients" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"last_period" text,
	"last_run_at" timestamp with time zone,
	"created_by" bigint
);
--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD COLUMN "attachment_id" bigint;--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_template_id_report_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."report_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_files_account_id_created_at_index" ON "report_files" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_templates_account_id_name_index" ON "report_templates" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "report_templates_schedule_index" ON "report_templates" USING btree ("schedule");