/**
 * A catalog shaped like the public APIs people connect (a code forge, payments, messaging, an
 * object store, a calendar, music, a shop, a helpdesk, on-call, weather, DNS, a wiki, a CRM,
 * tasks), written for these tests: names in the styles servers use (snake_case, camelCase,
 * dotted, PascalCase), descriptions that read like API docs, parameters with real names. With
 * the plain requests people type and the tools that answer them, for measuring tool search on
 * something other than its own benchmark.
 */

export interface CatalogTool {
  name: string;
  title?: string;
  description: string;
  /** Parameter name -> description. */
  params?: Record<string, string>;
  /** Values every parameter is limited to. */
  enum?: string[];
}

export interface CatalogServer {
  name: string;
  instructions?: string;
  tools: CatalogTool[];
}

const p = (...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, `The ${name.replace(/_/g, " ")}.`]));

export const API_CATALOG: CatalogServer[] = [
  {
    name: "forge",
    tools: [
      {
        name: "repos.createFork",
        description: "Creates a fork of a repository for the authenticated user.",
        params: p("owner", "repo", "organization"),
      },
      {
        name: "repos.delete",
        description: "Deletes a repository. Requires admin access.",
        params: p("owner", "repo"),
      },
      {
        name: "repos.listBranches",
        description: "Lists the branches of a repository.",
        params: p("owner", "repo", "protected"),
      },
      {
        name: "issues.create",
        description: "Opens an issue in a repository with a title, body and labels.",
        params: p("owner", "repo", "title", "body", "labels"),
      },
      {
        name: "issues.listForRepo",
        description: "Lists issues in a repository, filtered by state, label or assignee.",
        params: p("owner", "repo", "state", "labels"),
      },
      {
        name: "issues.addComment",
        description: "Adds a comment to an issue or pull request.",
        params: p("owner", "repo", "issue_number", "body"),
      },
      {
        name: "pulls.create",
        description: "Opens a pull request from a head branch into a base branch.",
        params: p("owner", "repo", "head", "base", "title"),
      },
      {
        name: "pulls.merge",
        description: "Merges a pull request into its base branch.",
        params: p("owner", "repo", "pull_number", "merge_method"),
      },
      {
        name: "actions.listWorkflowRuns",
        description: "Lists the CI workflow runs of a repository.",
        params: p("owner", "repo", "status"),
      },
      {
        name: "actions.reRunWorkflow",
        description: "Re-runs a failed CI workflow run.",
        params: p("owner", "repo", "run_id"),
      },
      {
        name: "releases.create",
        description: "Publishes a release from a tag, with release notes.",
        params: p("owner", "repo", "tag_name", "notes"),
      },
    ],
  },
  {
    name: "paystream",
    tools: [
      {
        name: "createRefund",
        description: "Refunds a charge, in full or in part.",
        params: p("charge", "amount", "reason"),
      },
      {
        name: "listCharges",
        description: "Lists the charges made to a customer, newest first.",
        params: p("customer", "limit"),
      },
      {
        name: "createCustomer",
        description: "Creates a customer record with an email address and name.",
        params: p("email", "name"),
      },
      {
        name: "cancelSubscription",
        description: "Cancels a customer's subscription at the end of the period.",
        params: p("subscription"),
      },
      {
        name: "retrieveBalance",
        description: "Retrieves the account balance: available and pending funds.",
        params: {},
      },
      {
        name: "createPayout",
        description: "Sends money from the balance to a bank account or supplier.",
        params: p("amount", "destination"),
      },
      {
        name: "createInvoice",
        description: "Drafts an invoice for a customer's pending items.",
        params: p("customer", "due_date"),
      },
      {
        name: "attachPaymentMethod",
        description: "Attaches a card or bank payment method to a customer.",
        params: p("customer", "payment_method"),
      },
    ],
  },
  {
    name: "telecomms",
    tools: [
      {
        name: "send_message",
        description: "Sends an SMS text message to a phone number.",
        params: p("to", "from", "body"),
      },
      {
        name: "create_call",
        description: "Places an outgoing voice call to a phone number.",
        params: p("to", "from", "url"),
      },
      {
        name: "list_available_phone_numbers",
        description: "Searches phone numbers available to buy, by country and area code.",
        params: p("country", "area_code"),
      },
      {
        name: "create_incoming_phone_number",
        description: "Buys a phone number for the account.",
        params: p("phone_number"),
      },
      {
        name: "start_verification",
        description: "Sends a one-time verification code by SMS or voice.",
        params: p("to", "channel"),
      },
      {
        name: "list_messages",
        description: "Lists sent and received messages.",
        params: p("to", "date_sent"),
      },
    ],
  },
  {
    name: "blobstore",
    tools: [
      {
        name: "PutObject",
        description: "Uploads a file as an object to a bucket.",
        params: p("Bucket", "Key", "Body"),
      },
      { name: "GetObject", description: "Downloads an object from a bucket.", params: p("Bucket", "Key") },
      { name: "DeleteObject", description: "Removes an object from a bucket.", params: p("Bucket", "Key") },
      {
        name: "ListObjectsV2",
        description: "Lists the objects in a bucket under a prefix.",
        params: p("Bucket", "Prefix"),
      },
      {
        name: "CreateBucket",
        description: "Creates a new bucket in a region.",
        params: p("Bucket", "Region"),
      },
      { name: "DeleteBucket", description: "Deletes an empty bucket.", params: p("Bucket") },
      {
        name: "GeneratePresignedUrl",
        description: "Makes a temporary link that lets anyone download an object until it expires.",
        params: p("Bucket", "Key", "ExpiresIn"),
      },
      {
        name: "PutBucketLifecycle",
        description: "Sets rules that expire or archive old objects.",
        params: p("Bucket", "Rules"),
      },
    ],
  },
  {
    name: "agenda",
    tools: [
      {
        name: "events_insert",
        description: "Creates an event on a calendar with a start, an end and attendees.",
        params: p("calendar_id", "summary", "start", "end", "attendees"),
      },
      {
        name: "events_list",
        description: "Lists the events on a calendar between two times.",
        params: p("calendar_id", "time_min", "time_max"),
      },
      {
        name: "events_delete",
        description: "Deletes an event from a calendar.",
        params: p("calendar_id", "event_id"),
      },
      {
        name: "freebusy_query",
        description: "Tells which times are busy for a set of calendars.",
        params: p("time_min", "time_max", "items"),
      },
      {
        name: "calendars_create",
        description: "Creates a secondary calendar.",
        params: p("summary", "time_zone"),
      },
    ],
  },
  {
    name: "tunes",
    tools: [
      {
        name: "search",
        description: "Searches the catalog for albums, artists, playlists and tracks that match a keyword.",
        params: p("q", "type"),
      },
      {
        name: "startPlayback",
        description: "Starts or resumes playback on the active device.",
        params: p("context_uri", "device_id"),
      },
      { name: "pausePlayback", description: "Pauses playback on the active device.", params: p("device_id") },
      { name: "skipToNext", description: "Skips to the next track in the queue.", params: p("device_id") },
      {
        name: "setVolume",
        description: "Sets the volume of the active device, in percent.",
        params: p("volume_percent"),
      },
      {
        name: "getCurrentlyPlaying",
        description: "Gets the track the user is listening to now.",
        params: {},
      },
      {
        name: "createPlaylist",
        description: "Creates a playlist for a user.",
        params: p("user_id", "name", "public"),
      },
      {
        name: "addTracksToPlaylist",
        description: "Adds tracks to a playlist.",
        params: p("playlist_id", "uris"),
      },
    ],
  },
  {
    name: "storefront",
    tools: [
      {
        name: "order_cancel",
        description: "Cancels an order, refunds it and restocks its items.",
        params: p("order_id", "restock"),
      },
      {
        name: "order_list",
        description: "Lists recent orders with their status.",
        params: p("status", "created_at_min"),
      },
      {
        name: "inventory_adjust",
        description: "Adjusts the stock level of a product variant at a location.",
        params: p("inventory_item_id", "location_id", "delta"),
      },
      {
        name: "product_create",
        description: "Adds a product to the shop with its price and variants.",
        params: p("title", "price", "variants"),
      },
      {
        name: "discount_create",
        description: "Creates a discount code for a percentage or a fixed amount off.",
        params: p("code", "value"),
      },
      {
        name: "customer_search",
        description: "Finds shop customers by name, email or order count.",
        params: p("query"),
      },
    ],
  },
  {
    name: "helpdesk",
    tools: [
      {
        name: "tickets_create",
        description: "Opens a support ticket for a requester.",
        params: p("subject", "description", "priority"),
      },
      {
        name: "tickets_update",
        description: "Changes a ticket's status, priority or assignee.",
        params: p("ticket_id", "status", "priority", "assignee"),
      },
      {
        name: "tickets_merge",
        description: "Merges duplicate tickets into one.",
        params: p("source_ids", "target_id"),
      },
      {
        name: "tickets_search",
        description: "Searches tickets by text, status or requester.",
        params: p("query"),
      },
      {
        name: "macros_apply",
        description: "Applies a saved reply macro to a ticket.",
        params: p("ticket_id", "macro_id"),
      },
    ],
  },
  {
    name: "oncall",
    tools: [
      {
        name: "incidents_create",
        description: "Triggers an incident on a service and pages whoever is on call.",
        params: p("service_id", "title", "urgency"),
      },
      {
        name: "incidents_acknowledge",
        description: "Acknowledges an incident so that escalation stops.",
        params: p("incident_id"),
      },
      {
        name: "incidents_resolve",
        description: "Resolves an incident.",
        params: p("incident_id", "resolution"),
      },
      {
        name: "schedules_oncall",
        description: "Shows who is on call for a schedule and when.",
        params: p("schedule_id", "since", "until"),
      },
    ],
  },
  {
    name: "skycast",
    tools: [
      {
        name: "current_weather",
        description: "Current conditions for a city: temperature, wind, humidity.",
        params: p("city", "units"),
      },
      {
        name: "forecast_5day",
        description: "Weather forecast for the next five days, in three-hour steps: rain, snow, temperature.",
        params: p("city", "units"),
      },
      {
        name: "air_pollution",
        description: "Air quality index and pollutant levels for a place.",
        params: p("lat", "lon"),
      },
      {
        name: "weather_alerts",
        description: "Severe weather warnings issued for a region.",
        params: p("region"),
      },
    ],
  },
  {
    name: "edgenet",
    tools: [
      {
        name: "dns_records_create",
        description: "Adds a DNS record (A, AAAA, CNAME, TXT) to a zone.",
        params: p("zone_id", "type", "name", "content"),
      },
      {
        name: "dns_records_list",
        description: "Lists the DNS records of a zone.",
        params: p("zone_id", "type"),
      },
      {
        name: "cache_purge",
        description: "Purges cached files from the CDN, all of them or by URL.",
        params: p("zone_id", "files"),
      },
      {
        name: "firewall_rules_create",
        description: "Blocks or challenges traffic that matches an expression, such as an IP address.",
        params: p("zone_id", "action", "expression"),
      },
    ],
  },
  {
    name: "wiki",
    tools: [
      {
        name: "pages_create",
        description: "Creates a wiki page in a space.",
        params: p("space", "title", "body"),
      },
      {
        name: "pages_update",
        description: "Updates a wiki page's content.",
        params: p("page_id", "body", "version"),
      },
      { name: "pages_search", description: "Searches wiki pages by text.", params: p("query", "space") },
      {
        name: "page_history",
        description: "Lists the versions of a page and restores an older one.",
        params: p("page_id"),
      },
    ],
  },
  {
    name: "salespipe",
    tools: [
      {
        name: "leads_convert",
        description: "Converts a lead into a contact, an account and an opportunity.",
        params: p("lead_id"),
      },
      {
        name: "deals_update_stage",
        description: "Moves a deal to another pipeline stage.",
        params: p("deal_id", "stage"),
      },
      {
        name: "contacts_create",
        description: "Creates a contact with name, email and company.",
        params: p("name", "email", "company"),
      },
      { name: "reports_run", description: "Runs a saved sales report.", params: p("report_id") },
    ],
  },
  {
    name: "taskmaster",
    tools: [
      {
        name: "add_task",
        description: "Adds a task to a list, with an optional due date.",
        params: p("content", "due_string", "project"),
      },
      { name: "close_task", description: "Marks a task as done.", params: p("task_id") },
      {
        name: "add_reminder",
        description: "Sets a reminder for a task at a time.",
        params: p("task_id", "due"),
      },
      {
        name: "list_tasks",
        description: "Lists open tasks, filtered by project or due date.",
        params: p("project", "filter"),
      },
    ],
  },
];

/** Plain requests and the tools (server/tool) that answer them. */
export const API_REQUESTS: ReadonlyArray<[string, string[]]> = [
  ["fork the octocat/hello-world repository", ["forge/repos.createFork"]],
  ["open an issue about the login page crashing", ["forge/issues.create"]],
  ["merge pull request 42", ["forge/pulls.merge"]],
  ["show me the open issues labelled bug", ["forge/issues.listForRepo"]],
  ["publish release v2.1 with notes", ["forge/releases.create"]],
  ["refund the last charge of customer cus_123", ["paystream/createRefund"]],
  ["cancel my subscription", ["paystream/cancelSubscription"]],
  ["how much money is in my account balance", ["paystream/retrieveBalance"]],
  ["send an invoice to Acme for March", ["paystream/createInvoice"]],
  ["text +15551234567 that I'm running late", ["telecomms/send_message"]],
  ["call my mom at +15550001111", ["telecomms/create_call"]],
  [
    "buy a phone number with area code 415",
    ["telecomms/create_incoming_phone_number", "telecomms/list_available_phone_numbers"],
  ],
  ["send a verification code to this phone", ["telecomms/start_verification"]],
  ["upload report.pdf to the backups bucket", ["blobstore/PutObject"]],
  ["give me a temporary download link for invoices/2024.pdf", ["blobstore/GeneratePresignedUrl"]],
  ["delete the old-logs bucket", ["blobstore/DeleteBucket"]],
  ["list the files in the photos bucket", ["blobstore/ListObjectsV2"]],
  ["add a meeting with Anna to my calendar tomorrow at 3pm", ["agenda/events_insert"]],
  ["am I busy on Friday afternoon", ["agenda/freebusy_query", "agenda/events_list"]],
  ["cancel the event on Monday", ["agenda/events_delete"]],
  ["skip this track", ["tunes/skipToNext"]],
  ["what track is playing right now", ["tunes/getCurrentlyPlaying"]],
  ["make a playlist called road trip", ["tunes/createPlaylist"]],
  ["pause the music", ["tunes/pausePlayback"]],
  ["set the volume to 30 percent", ["tunes/setVolume"]],
  ["cancel order #1001 and restock the items", ["storefront/order_cancel"]],
  ["create a 20% discount code", ["storefront/discount_create"]],
  ["add 50 to the stock level of the blue t-shirt", ["storefront/inventory_adjust"]],
  ["escalate ticket 881 to urgent priority", ["helpdesk/tickets_update"]],
  ["merge these two duplicate tickets", ["helpdesk/tickets_merge"]],
  ["acknowledge the database incident", ["oncall/incidents_acknowledge"]],
  ["who is on call this weekend", ["oncall/schedules_oncall"]],
  ["what is the weather forecast for Paris this week", ["skycast/forecast_5day"]],
  ["current temperature in Tokyo", ["skycast/current_weather"]],
  ["is the air quality bad in Delhi today", ["skycast/air_pollution"]],
  ["add a DNS record for www", ["edgenet/dns_records_create"]],
  ["purge the CDN cache", ["edgenet/cache_purge"]],
  ["block the IP address 198.51.100.4", ["edgenet/firewall_rules_create"]],
  ["create a wiki page with the meeting notes", ["wiki/pages_create"]],
  ["restore the previous version of the onboarding page", ["wiki/page_history"]],
  ["convert the Acme lead", ["salespipe/leads_convert"]],
  ["move the Globex deal to negotiation stage", ["salespipe/deals_update_stage"]],
  ["remind me to buy milk tomorrow at 9", ["taskmaster/add_reminder", "taskmaster/add_task"]],
  ["mark the pay rent task as done", ["taskmaster/close_task"]],
];
