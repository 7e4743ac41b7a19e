"use client";

import { createContext, useContext } from "react";
import { messagesFor, type Messages } from "@/lib/i18n";

/** The page's strings (lib/i18n), chosen once for the whole flow. */
const MessagesContext = createContext<Messages>(messagesFor("en"));

export function MessagesProvider({ messages, children }: { messages: Messages; children: React.ReactNode }) {
  return <MessagesContext.Provider value={messages}>{children}</MessagesContext.Provider>;
}

export function useMessages(): Messages {
  return useContext(MessagesContext);
}
