/** Moved to components/ui/ (shared with the developer portal). */
export * from "@/components/ui/button";
