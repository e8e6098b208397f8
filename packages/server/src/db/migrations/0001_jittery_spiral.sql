CREATE TABLE "channel_read_values" (
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "channel_read_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"device_channel_template_id" bigint NOT NULL,
	"sub_channel" integer,
	"value" double precision NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"operation_source" text,
	"control_time" timestamp with time zone,
	"frame_key" text NOT NULL,
	CONSTRAINT "channel_read_values_id_date_time_pk" PRIMARY KEY("id","date_time")
) PARTITION BY RANGE ("date_time");
--> statement-breakpoint
CREATE TABLE "channel_value_types" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_value_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	CONSTRAINT "channel_value_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "channel_values" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"device_channel_template_id" bigint NOT NULL,
	"value" double precision NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_write_values" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_write_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"device_channel_template_id" bigint NOT NULL,
	"value" double precision NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"sent_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"operation_source" text
);
--> statement-breakpoint
CREATE TABLE "device_channel_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_channel_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"device_type_model_id" bigint NOT NULL,
	"channel_value_type_id" bigint,
	"channel_type" text NOT NULL,
	"channel_order" integer NOT NULL,
	"channel_code" text NOT NULL,
	"address" text,
	"unit" text NOT NULL,
	"data_type" text NOT NULL,
	"description" text NOT NULL,
	"alert_parameter_code" text NOT NULL,
	"mqtt_package_order" integer NOT NULL,
	"data_limit_max" double precision NOT NULL,
	"data_limit_min" double precision NOT NULL,
	"data_byte_length" integer NOT NULL,
	"data_bit_length" integer,
	"data_label" text NOT NULL,
	"variables" text NOT NULL,
	"formula" text NOT NULL,
	"channel_package_order" integer
);
--> statement-breakpoint
CREATE TABLE "device_connection_status" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_connection_status_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"status" text NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"rssi" double precision,
	"snr" double precision
);
--> statement-breakpoint
CREATE TABLE "device_models" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"model_name" text NOT NULL,
	"picture" text,
	"device_type_id" bigint NOT NULL,
	"device_type_model_id" bigint,
	"device_type_protocol_id" bigint NOT NULL,
	"support_task" boolean DEFAULT false NOT NULL,
	"remark" text,
	"detail" text,
	"parameter_group_code" text NOT NULL,
	"class_type" text
);
--> statement-breakpoint
CREATE TABLE "device_node_loss_settings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_node_loss_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"alert_level" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"alarm_duration" integer,
	"alarm_count" integer,
	"is_forever" boolean DEFAULT true NOT NULL,
	"heartbeat_threshold" integer NOT NULL,
	"heartbeat_cycle" integer,
	"notify_sms" boolean DEFAULT false NOT NULL,
	"notify_email" boolean DEFAULT false NOT NULL,
	"notify_push" boolean DEFAULT false NOT NULL,
	"period" integer
);
--> statement-breakpoint
CREATE TABLE "device_topology" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_topology_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"topology_id" bigint NOT NULL,
	"parent_device_id" bigint NOT NULL,
	"child_device_id" bigint NOT NULL,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "device_topology_types" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_topology_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	CONSTRAINT "device_topology_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "device_type_protocols" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_type_protocols_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	CONSTRAINT "device_type_protocols_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "device_types" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"type_name_en" text NOT NULL,
	"type_name_tr" text NOT NULL,
	"type_name_es" text,
	"type_name_ar" text,
	"type_name_fr" text,
	"iot_type" text NOT NULL,
	"device_topology_type_id" bigint
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"device_type_model_id" bigint NOT NULL,
	"region_id" bigint,
	"code" text,
	"uid" text,
	"serial_number" text,
	"mac" text,
	"address" text,
	"street" text,
	"latitude" double precision,
	"longitude" double precision,
	"imsi" text,
	"imei" text,
	"iccid" text,
	"dev_eui" text,
	"status" text,
	"notes" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"port_number" integer,
	"application_id" text,
	"application_name" text,
	"location" text,
	"side" text,
	"confirmed" boolean DEFAULT false NOT NULL,
	"connection_attempt_number" integer,
	"sleep_time" integer,
	"has_sub_channel" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sub_device_channel_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sub_device_channel_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"device_type_model_id" bigint NOT NULL,
	"channel_value_type_id" bigint,
	"channel_type" text NOT NULL,
	"channel_order" integer NOT NULL,
	"channel_code" text NOT NULL,
	"address" text,
	"unit" text NOT NULL,
	"data_type" text NOT NULL,
	"description" text NOT NULL,
	"alert_parameter_code" text NOT NULL,
	"mqtt_package_order" integer NOT NULL,
	"data_limit_max" double precision NOT NULL,
	"data_limit_min" double precision NOT NULL,
	"data_byte_length" integer NOT NULL,
	"data_bit_length" integer,
	"data_label" text NOT NULL,
	"variables" text NOT NULL,
	"formula" text NOT NULL,
	"channel_package_order" integer,
	"parent_template_id" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_device_pairing" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_device_pairing_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"alert_template_id" bigint NOT NULL,
	"device_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_event_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_event_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"alert_event_id" bigint,
	"status" text,
	"alert_message" text,
	"device_id" bigint,
	"device_type_id" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"event_name" text NOT NULL,
	"device_id" bigint,
	"device_channel_template_id" bigint,
	"is_forever" boolean NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"priority" integer,
	"event_time" timestamp with time zone,
	"status" text,
	"execution_count" integer DEFAULT 0 NOT NULL,
	"logs" text,
	"turn_to_alarm" boolean DEFAULT false NOT NULL,
	"duration_of_alarm" integer,
	"reporting_frequency" integer,
	"notify_sms" boolean DEFAULT false NOT NULL,
	"notify_email" boolean DEFAULT false NOT NULL,
	"notify_push" boolean DEFAULT false NOT NULL,
	"sms_list" text,
	"email_list" text
);
--> statement-breakpoint
CREATE TABLE "alert_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"alert_level" text,
	"date_time" timestamp with time zone NOT NULL,
	"device_id" bigint,
	"template_id" bigint,
	"value" double precision,
	"channel_type" text,
	"channel_value" text,
	"region_id" bigint,
	"device_type_id" bigint,
	"event_name" text,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_notification_list" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_notification_list_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"channel" text,
	"recipient" text,
	"subject" text,
	"status" text,
	"message" text,
	"alert_log_id" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_notification_settings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_notification_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text,
	"notification_type" text NOT NULL,
	"service_name" text NOT NULL,
	"service_uri" text NOT NULL,
	"encryption" text,
	"port_number" integer,
	"mail_host" text,
	"user_name" text,
	"mail_password_encrypted" text,
	"sms_msg_header" text,
	"sms_user_code" text,
	"sms_password_encrypted" text,
	"message_subject" text,
	"message_body" text,
	"notification_address" text
);
--> statement-breakpoint
CREATE TABLE "alert_parameter_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_parameter_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"device_type_id" bigint,
	"device_type_model_id" bigint,
	"parameter_group_code" text NOT NULL,
	"enable" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_parameter_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_parameter_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"group_id" bigint,
	"condition" text NOT NULL,
	"value" double precision NOT NULL,
	"value2" double precision,
	"unit" text,
	"alert_level" text NOT NULL,
	"threshold" double precision,
	"channel_template_id" bigint,
	"code" text
);
--> statement-breakpoint
CREATE TABLE "autonomous_profiles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "autonomous_profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"delay_time" integer,
	"threshold" double precision,
	"condition" text,
	"sensor_control" boolean DEFAULT false NOT NULL,
	"weather_control" boolean DEFAULT false NOT NULL,
	"formula" text,
	"device_type_id" bigint,
	"day" text,
	"period" integer
);
--> statement-breakpoint
CREATE TABLE "data_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"topic" text,
	"device_uid" text,
	"reason" text,
	"payload" text
);
--> statement-breakpoint
CREATE TABLE "deploy_response_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deploy_response_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"task_profile_id" bigint,
	"lora_wan_operation_type_id" integer,
	"dev_eui" text,
	"device_id" bigint,
	"deploy_time" timestamp with time zone,
	"response_time" timestamp with time zone,
	"response_result" text,
	"resend_operation" boolean DEFAULT false NOT NULL,
	"resend_count" integer,
	"channel_number" integer
);
--> statement-breakpoint
CREATE TABLE "fault_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fault_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"fault_type" text NOT NULL,
	"description" text,
	"reporter" text,
	"reported_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_applications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"chirpstack_application_id" text,
	CONSTRAINT "gateway_applications_chirpstackApplicationId_unique" UNIQUE("chirpstack_application_id")
);
--> statement-breakpoint
CREATE TABLE "gateway_device_pairing" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_device_pairing_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"profile_id" bigint NOT NULL,
	"nwk_key_encrypted" text,
	"app_key_encrypted" text
);
--> statement-breakpoint
CREATE TABLE "gateway_device_profiles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_device_profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"mac_version" text NOT NULL,
	"reg_params_revision" text NOT NULL,
	"supports_otaa" boolean DEFAULT true NOT NULL,
	"supports_class_b" boolean DEFAULT false NOT NULL,
	"supports_class_c" boolean DEFAULT false NOT NULL,
	"adr_algorithm_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateways_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"dev_eui" text NOT NULL,
	"gateway_code" text,
	"metadata" jsonb,
	"stats_interval" integer,
	"latitude" double precision,
	"longitude" double precision,
	"status" text,
	"message" text,
	CONSTRAINT "gateways_devEui_unique" UNIQUE("dev_eui")
);
--> statement-breakpoint
CREATE TABLE "maintenance_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"device_id" bigint,
	"work" text NOT NULL,
	"performed_by" text NOT NULL,
	"performed_at" timestamp with time zone NOT NULL,
	"fault_report_id" bigint
);
--> statement-breakpoint
CREATE TABLE "maintenance_planning" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_planning_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"title" text NOT NULL,
	"device_id" bigint,
	"region_id" bigint,
	"work" text NOT NULL,
	"due_date" date NOT NULL,
	"assignee" text,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "multicast_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "multicast_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"application_id" bigint,
	"multicast_address" text NOT NULL,
	"mc_nwk_s_key_encrypted" text,
	"mc_app_s_key_encrypted" text,
	"data_rate" integer,
	"frequency" integer,
	"group_type" text NOT NULL,
	"class_b_ping_slot_periodicity" integer,
	"class_c_scheduling_type" text
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "system_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"level" text,
	"source" text,
	"message" text,
	"context" jsonb
);
--> statement-breakpoint
CREATE TABLE "task_control_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_control_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"profile_id" bigint,
	"control_date" timestamp with time zone NOT NULL,
	"control_type" text
);
--> statement-breakpoint
CREATE TABLE "task_group_profiles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_group_profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"task_group_id" bigint NOT NULL,
	"task_profile_id" bigint NOT NULL,
	"mode" text NOT NULL,
	"method" text NOT NULL,
	"operation" text NOT NULL,
	"hour" integer NOT NULL,
	"minute" integer NOT NULL,
	"start_day" integer NOT NULL,
	"end_day" integer NOT NULL,
	"priority" integer NOT NULL,
	"color" text NOT NULL,
	"unlimited" boolean DEFAULT false NOT NULL,
	"holidays_only" boolean DEFAULT false NOT NULL,
	"weekends_only" boolean DEFAULT false NOT NULL,
	"exclude_weekends" boolean DEFAULT false NOT NULL,
	"enforce_execution" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"details" text,
	"is_multicast" boolean DEFAULT false NOT NULL,
	"device_type_model_id" bigint,
	"region_id" bigint,
	"content" text,
	"status" text,
	"message" text,
	"color" text,
	"publication_status" text,
	"type" text
);
--> statement-breakpoint
CREATE TABLE "task_profile_execution_periods" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_profile_execution_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"task_profile_id" bigint NOT NULL,
	"is_sunset" boolean DEFAULT false NOT NULL,
	"is_sunrise" boolean DEFAULT false NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"value" integer
);
--> statement-breakpoint
CREATE TABLE "task_profile_timings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_profile_timings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"task_profile_id" bigint NOT NULL,
	"device_type_model_id" bigint,
	"device_id" bigint,
	"channel_template_id" bigint,
	"on1_type" text,
	"on1_time" time,
	"on1_value" integer,
	"off1_type" text,
	"off1_time" time,
	"off1_value" integer,
	"on2_type" text,
	"on2_time" time,
	"on2_value" integer,
	"off2_type" text,
	"off2_time" time,
	"off2_value" integer,
	"on3_type" text,
	"on3_time" time,
	"on3_value" integer,
	"off3_type" text,
	"off3_time" time,
	"off3_value" integer,
	"on4_type" text,
	"on4_time" time,
	"on4_value" integer,
	"off4_type" text,
	"off4_time" time,
	"off4_value" integer
);
--> statement-breakpoint
CREATE TABLE "task_profiles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"task_type_id" bigint NOT NULL,
	"operation" text NOT NULL,
	"dim_level" integer,
	"color" text NOT NULL,
	"cyclic_type" text,
	"priority" integer NOT NULL,
	"off_days" jsonb,
	"individual_or_batch" text,
	"start_date" date,
	"end_date" date,
	"start_day" integer,
	"end_day" integer,
	"cycle_day" integer,
	"device_type_model_id" bigint,
	"lora_wan_operation_type_id" integer
);
--> statement-breakpoint
CREATE TABLE "task_types" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_values" ADD CONSTRAINT "channel_values_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_values" ADD CONSTRAINT "channel_values_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_values" ADD CONSTRAINT "channel_values_device_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("device_channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_write_values" ADD CONSTRAINT "channel_write_values_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_write_values" ADD CONSTRAINT "channel_write_values_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_write_values" ADD CONSTRAINT "channel_write_values_device_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("device_channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_channel_templates" ADD CONSTRAINT "device_channel_templates_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_channel_templates" ADD CONSTRAINT "device_channel_templates_channel_value_type_id_channel_value_types_id_fk" FOREIGN KEY ("channel_value_type_id") REFERENCES "public"."channel_value_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD CONSTRAINT "device_connection_status_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD CONSTRAINT "device_connection_status_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_models" ADD CONSTRAINT "device_models_device_type_id_device_types_id_fk" FOREIGN KEY ("device_type_id") REFERENCES "public"."device_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_models" ADD CONSTRAINT "device_models_device_type_protocol_id_device_type_protocols_id_fk" FOREIGN KEY ("device_type_protocol_id") REFERENCES "public"."device_type_protocols"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_node_loss_settings" ADD CONSTRAINT "device_node_loss_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_node_loss_settings" ADD CONSTRAINT "device_node_loss_settings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_topology" ADD CONSTRAINT "device_topology_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_topology" ADD CONSTRAINT "device_topology_topology_id_device_topology_types_id_fk" FOREIGN KEY ("topology_id") REFERENCES "public"."device_topology_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_topology" ADD CONSTRAINT "device_topology_parent_device_id_devices_id_fk" FOREIGN KEY ("parent_device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_topology" ADD CONSTRAINT "device_topology_child_device_id_devices_id_fk" FOREIGN KEY ("child_device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_types" ADD CONSTRAINT "device_types_device_topology_type_id_device_topology_types_id_fk" FOREIGN KEY ("device_topology_type_id") REFERENCES "public"."device_topology_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_device_channel_templates" ADD CONSTRAINT "sub_device_channel_templates_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_device_channel_templates" ADD CONSTRAINT "sub_device_channel_templates_channel_value_type_id_channel_value_types_id_fk" FOREIGN KEY ("channel_value_type_id") REFERENCES "public"."channel_value_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_device_channel_templates" ADD CONSTRAINT "sub_device_channel_templates_parent_template_id_device_channel_templates_id_fk" FOREIGN KEY ("parent_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_device_pairing" ADD CONSTRAINT "alert_device_pairing_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_device_pairing" ADD CONSTRAINT "alert_device_pairing_alert_template_id_alert_parameter_templates_id_fk" FOREIGN KEY ("alert_template_id") REFERENCES "public"."alert_parameter_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_device_pairing" ADD CONSTRAINT "alert_device_pairing_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_event_logs" ADD CONSTRAINT "alert_event_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_device_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("device_channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_logs" ADD CONSTRAINT "alert_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notification_list" ADD CONSTRAINT "alert_notification_list_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notification_settings" ADD CONSTRAINT "alert_notification_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_groups" ADD CONSTRAINT "alert_parameter_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_groups" ADD CONSTRAINT "alert_parameter_groups_device_type_id_device_types_id_fk" FOREIGN KEY ("device_type_id") REFERENCES "public"."device_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_groups" ADD CONSTRAINT "alert_parameter_groups_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_templates" ADD CONSTRAINT "alert_parameter_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_templates" ADD CONSTRAINT "alert_parameter_templates_group_id_alert_parameter_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."alert_parameter_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_parameter_templates" ADD CONSTRAINT "alert_parameter_templates_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autonomous_profiles" ADD CONSTRAINT "autonomous_profiles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autonomous_profiles" ADD CONSTRAINT "autonomous_profiles_device_type_id_device_types_id_fk" FOREIGN KEY ("device_type_id") REFERENCES "public"."device_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_logs" ADD CONSTRAINT "data_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_response_logs" ADD CONSTRAINT "deploy_response_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD CONSTRAINT "fault_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_reports" ADD CONSTRAINT "fault_reports_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_applications" ADD CONSTRAINT "gateway_applications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_device_pairing" ADD CONSTRAINT "gateway_device_pairing_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_device_pairing" ADD CONSTRAINT "gateway_device_pairing_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_device_pairing" ADD CONSTRAINT "gateway_device_pairing_application_id_gateway_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."gateway_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_device_pairing" ADD CONSTRAINT "gateway_device_pairing_profile_id_gateway_device_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."gateway_device_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_device_profiles" ADD CONSTRAINT "gateway_device_profiles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_fault_report_id_fault_reports_id_fk" FOREIGN KEY ("fault_report_id") REFERENCES "public"."fault_reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_planning" ADD CONSTRAINT "maintenance_planning_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_planning" ADD CONSTRAINT "maintenance_planning_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_planning" ADD CONSTRAINT "maintenance_planning_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multicast_groups" ADD CONSTRAINT "multicast_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multicast_groups" ADD CONSTRAINT "multicast_groups_application_id_gateway_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."gateway_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_logs" ADD CONSTRAINT "system_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD CONSTRAINT "task_control_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_group_profiles" ADD CONSTRAINT "task_group_profiles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_group_profiles" ADD CONSTRAINT "task_group_profiles_task_group_id_task_groups_id_fk" FOREIGN KEY ("task_group_id") REFERENCES "public"."task_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_group_profiles" ADD CONSTRAINT "task_group_profiles_task_profile_id_task_profiles_id_fk" FOREIGN KEY ("task_profile_id") REFERENCES "public"."task_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_execution_periods" ADD CONSTRAINT "task_profile_execution_periods_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_execution_periods" ADD CONSTRAINT "task_profile_execution_periods_task_profile_id_task_profiles_id_fk" FOREIGN KEY ("task_profile_id") REFERENCES "public"."task_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD CONSTRAINT "task_profile_timings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD CONSTRAINT "task_profile_timings_task_profile_id_task_profiles_id_fk" FOREIGN KEY ("task_profile_id") REFERENCES "public"."task_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD CONSTRAINT "task_profile_timings_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD CONSTRAINT "task_profile_timings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD CONSTRAINT "task_profile_timings_channel_template_id_device_channel_templates_id_fk" FOREIGN KEY ("channel_template_id") REFERENCES "public"."device_channel_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profiles" ADD CONSTRAINT "task_profiles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profiles" ADD CONSTRAINT "task_profiles_task_type_id_task_types_id_fk" FOREIGN KEY ("task_type_id") REFERENCES "public"."task_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_profiles" ADD CONSTRAINT "task_profiles_device_type_model_id_device_models_id_fk" FOREIGN KEY ("device_type_model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_types" ADD CONSTRAINT "task_types_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_read_values_device_id_device_channel_template_id_frame_key_date_time_index" ON "channel_read_values" USING btree ("device_id","device_channel_template_id","frame_key","date_time");--> statement-breakpoint
CREATE INDEX "channel_read_values_account_id_device_id_date_time_index" ON "channel_read_values" USING btree ("account_id","device_id","date_time");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_values_device_id_device_channel_template_id_index" ON "channel_values" USING btree ("device_id","device_channel_template_id");--> statement-breakpoint
CREATE INDEX "channel_values_account_id_date_time_index" ON "channel_values" USING btree ("account_id","date_time");--> statement-breakpoint
CREATE INDEX "channel_write_values_account_id_created_at_index" ON "channel_write_values" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "channel_write_values_status_index" ON "channel_write_values" USING btree ("status");--> statement-breakpoint
CREATE INDEX "device_channel_templates_device_type_model_id_mqtt_package_order_index" ON "device_channel_templates" USING btree ("device_type_model_id","mqtt_package_order");--> statement-breakpoint
CREATE UNIQUE INDEX "device_connection_status_device_id_index" ON "device_connection_status" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "device_connection_status_account_id_status_index" ON "device_connection_status" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "device_node_loss_settings_account_id_device_id_index" ON "device_node_loss_settings" USING btree ("account_id","device_id");--> statement-breakpoint
CREATE INDEX "device_topology_account_id_topology_id_index" ON "device_topology" USING btree ("account_id","topology_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_topology_topology_id_child_device_id_index" ON "device_topology" USING btree ("topology_id","child_device_id");--> statement-breakpoint
CREATE INDEX "devices_account_id_name_index" ON "devices" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "devices_account_id_region_id_name_index" ON "devices" USING btree ("account_id","region_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_dev_eui_index" ON "devices" USING btree ("dev_eui");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_uid_index" ON "devices" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "sub_device_channel_templates_device_type_model_id_channel_package_order_index" ON "sub_device_channel_templates" USING btree ("device_type_model_id","channel_package_order");--> statement-breakpoint
CREATE INDEX "alert_device_pairing_account_id_device_id_index" ON "alert_device_pairing" USING btree ("account_id","device_id");--> statement-breakpoint
CREATE INDEX "alert_event_logs_account_id_date_time_index" ON "alert_event_logs" USING btree ("account_id","date_time");--> statement-breakpoint
CREATE INDEX "alert_events_account_id_index" ON "alert_events" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "alert_logs_account_id_date_time_index" ON "alert_logs" USING btree ("account_id","date_time");--> statement-breakpoint
CREATE INDEX "alert_notification_list_account_id_date_time_index" ON "alert_notification_list" USING btree ("account_id","date_time");--> statement-breakpoint
CREATE INDEX "alert_notification_settings_account_id_index" ON "alert_notification_settings" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "alert_parameter_groups_account_id_index" ON "alert_parameter_groups" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "alert_parameter_templates_account_id_index" ON "alert_parameter_templates" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "autonomous_profiles_account_id_index" ON "autonomous_profiles" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "data_logs_account_id_created_at_index" ON "data_logs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "deploy_response_logs_account_id_deploy_time_index" ON "deploy_response_logs" USING btree ("account_id","deploy_time");--> statement-breakpoint
CREATE INDEX "fault_reports_account_id_reported_at_index" ON "fault_reports" USING btree ("account_id","reported_at");--> statement-breakpoint
CREATE INDEX "gateway_applications_account_id_index" ON "gateway_applications" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "gateway_device_pairing_account_id_index" ON "gateway_device_pairing" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "gateway_device_profiles_account_id_index" ON "gateway_device_profiles" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "gateways_account_id_index" ON "gateways" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "maintenance_history_account_id_performed_at_index" ON "maintenance_history" USING btree ("account_id","performed_at");--> statement-breakpoint
CREATE INDEX "maintenance_planning_account_id_due_date_index" ON "maintenance_planning" USING btree ("account_id","due_date");--> statement-breakpoint
CREATE INDEX "multicast_groups_account_id_index" ON "multicast_groups" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "system_logs_account_id_created_at_index" ON "system_logs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "task_control_logs_account_id_control_date_index" ON "task_control_logs" USING btree ("account_id","control_date");--> statement-breakpoint
CREATE INDEX "task_group_profiles_account_id_task_group_id_index" ON "task_group_profiles" USING btree ("account_id","task_group_id");--> statement-breakpoint
CREATE INDEX "task_groups_account_id_index" ON "task_groups" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "task_profile_execution_periods_account_id_task_profile_id_index" ON "task_profile_execution_periods" USING btree ("account_id","task_profile_id");--> statement-breakpoint
CREATE INDEX "task_profile_timings_account_id_task_profile_id_index" ON "task_profile_timings" USING btree ("account_id","task_profile_id");--> statement-breakpoint
CREATE INDEX "task_profiles_account_id_index" ON "task_profiles" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "task_types_account_id_index" ON "task_types" USING btree ("account_id");--> statement-breakpoint
-- Readings live in monthly partitions; the server makes sure the months it writes to exist.
CREATE OR REPLACE FUNCTION lampyr_ensure_reading_partition(at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  name text := 'channel_read_values_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(name) IS NULL THEN
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF channel_read_values FOR VALUES FROM (%L) TO (%L)',
      name, month_start, month_start + interval '1 month');
  END IF;
  RETURN name;
END;
$$;
