CREATE TABLE "fault_photos" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fault_photos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"fault_report_id" bigint NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "maintenance_history" DROP CONSTRAINT "maintenance_history_fault_report_id_fault_reports_id_fk";
--> statement-breakpoint
ALTER TABLE "fault_reports" ALTER COLUMN "status" SET DEFAULT 'open';--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "has_photo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "assignee_id" bigint;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "crew" text;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "planned_date" date;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "parts_used" text;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "reopen_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD COLUMN "duplicate_of_id" bigint;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD COLUMN "action" text;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD COLUMN "parts_used" text;--> statement-breakpoint
ALTER TABLE "maintenance_planning" ADD COLUMN "fault_report_id" bigint;--> statement-breakpoint
ALTER TABLE "fault_photos" ADD CONSTRAINT "fault_photos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_photos" ADD CONSTRAINT "fault_photos_fault_report_id_fault_reports_id_fk" FOREIGN KEY ("fault_report_id") REFERENCES "public"."fault_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fault_photos_fault_report_id_index" ON "fault_photos" USING btree ("fault_report_id");--> statement-breakpoint
ALTER TABLE "fault_reports" ADD CONSTRAINT "fault_reports_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD CONSTRAINT "fault_reports_duplicate_of_id_fault_reports_id_fk" FOREIGN KEY ("duplicate_of_id") REFERENCES "public"."fault_reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_fault_report_id_fault_reports_id_fk" FOREIGN KEY ("fault_report_id") REFERENCES "public"."fault_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_planning" ADD CONSTRAINT "maintenance_planning_fault_report_id_fault_reports_id_fk" FOREIGN KEY ("fault_report_id") REFERENCES "public"."fault_reports"("id") ON DELETE cascade ON UPDATE no action;