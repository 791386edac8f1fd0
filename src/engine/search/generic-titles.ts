import { foldWord } from "./fold.js";

/**
 * Page titles that name no subject (issue 24): a site's "Overview" of wallets, "Introduction" to
 * webhooks, "Getting started" with the CLI. Sidebars show such a page under the group that says
 * what it is about ("Wallets and prepaid credits" > "Overview"), so a reader reads the group as
 * its title; search read only "Overview", and a question about prepaid credits ranked pages
 * titled with those words above the overview written about them. For these titles the page's
 * innermost navigation group is indexed with its title (`SearchIndex.pageFields`).
 *
 * A fixed list, in the languages the spec lists, rather than "a title several pages share": it
 * depends on the page alone, so a page's index entry never changes when another page is edited.
 */
const GENERIC_TITLES: ReadonlySet<string> = new Set(
  [
    // English
    "overview",
    "introduction",
    "intro",
    "getting started",
    "get started",
    "quickstart",
    "quick start",
    "home",
    "index",
    "welcome",
    "about",
    "basics",
    "concepts",
    "reference",
    "api reference",
    "guide",
    "guides",
    "examples",
    "faq",
    "faqs",
    "setup",
    "summary",
    // Other languages
    "概述",
    "概览",
    "简介",
    "介绍",
    "快速开始",
    "概要",
    "はじめに",
    "クイックスタート",
    "개요",
    "소개",
    "시작하기",
    "vision general",
    "introduccion",
    "primeros pasos",
    "vue d'ensemble",
    "apercu",
    "presentation",
    "premiers pas",
    "ubersicht",
    "einfuhrung",
    "erste schritte",
    "visao geral",
    "introducao",
    "primeiros passos",
    "panoramica",
    "introduzione",
    "genel bakis",
    "giris",
    "обзор",
    "введение",
    "tong quan",
    "gioi thieu",
    "ikhtisar",
    "pengantar",
    "نظرة عامة",
    "مقدمة",
  ].map(fold),
);

function fold(title: string): string {
  return title
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "")
    .map(foldWord)
    .join(" ");
}

/** Whether a page title names no subject of its own ("Overview", "Introducción", "개요"). */
export function isGenericTitle(title: string): boolean {
  return GENERIC_TITLES.has(fold(title.trim()));
}
