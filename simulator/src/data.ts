// Seeded generator of realistic projects and mentions, and the in-memory store that holds them.

import {
	SORT_TYPES,
	type MentionType,
	type Sentiment,
	type SourceType,
	type SortType,
} from './constants.ts';
import { Rng, deriveSeed } from './prng.ts';
import { parseQuery, positiveKeywords } from './query.ts';
import { comparator, insertSorted, METRIC_SORTS, refreshKeys } from './sorting.ts';
import type { Attachment, EngagementMetrics, Location, Mention, Project, Rec, Source } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Vocabulary
//
// A mention is written in the language of its `content.language.code` (a mention without a
// detected language is written in English), by an author with a name of that language, from a
// country where it is spoken, about a topic of its own project: a phone maker's mentions talk
// about batteries and cameras, a bank's about mortgages and account fees. Projects created
// through the API (no template) talk about topics any brand has: customer service, prices, …

/** The languages texts are written in (`en-gb` writes `en`; a null language writes `en`). */
type TextLanguage = 'en' | 'pl' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'sv' | 'uk';
type Mood = 'Positive' | 'Negative' | 'Neutral';
type Topics = Record<TextLanguage, string[]>;

interface ProjectTemplate {
	name: string;
	query: string;
	/** Every phrase of the query a mention may hold (the project's display keywords). */
	keywords: string[];
	/** The names people write: each matches the query on its own. */
	names: string[];
	competitor: string;
	/** What people say about this project, per language: noun phrases without an article. */
	topics: Topics;
	communities: Communities;
}

/** Where mentions of a project are posted, besides the social networks. */
interface Communities {
	subreddits: string[];
	forums: string[];
	blogs: string[];
	reviews: string[];
}

const PROJECT_TEMPLATES: ProjectTemplate[] = [
	{
		name: 'Acme Mobile',
		query: '"acme mobile" OR acme OR acmephone*',
		keywords: ['Acme', 'Acme Mobile', 'AcmePhone', 'AcmePhone 12', 'acmephones'],
		names: ['Acme', 'Acme Mobile', 'AcmePhone', 'AcmePhone 12'],
		competitor: 'Globex',
		topics: {
			en: ['battery life', 'camera', '5G coverage', 'latest software update', 'screen', 'customer service'],
			pl: ['bateria', 'aparat', 'zasięg 5G', 'najnowsza aktualizacja', 'ekran', 'obsługa klienta'],
			de: ['Akkulaufzeit', 'Kamera', '5G-Empfang', 'neuestes Update', 'Display', 'Kundenservice'],
			fr: ['autonomie de la batterie', 'appareil photo', 'couverture 5G', 'dernière mise à jour', 'écran', 'service client'],
			es: ['batería', 'cámara', 'cobertura 5G', 'última actualización', 'pantalla', 'atención al cliente'],
			it: ['batteria', 'fotocamera', 'copertura 5G', 'ultimo aggiornamento', 'schermo', 'assistenza clienti'],
			pt: ['bateria', 'câmera', 'cobertura 5G', 'última atualização', 'tela', 'atendimento ao cliente'],
			nl: ['batterijduur', 'camera', '5G-dekking', 'nieuwste update', 'scherm', 'klantenservice'],
			sv: ['batteritid', 'kamera', '5G-täckning', 'senaste uppdateringen', 'skärm', 'kundtjänst'],
			uk: ['батарея', 'камера', 'покриття 5G', 'останнє оновлення', 'екран', 'служба підтримки'],
		},
		communities: {
			subreddits: ['Android', 'smartphones', 'technology'],
			forums: ['forum.gsmspot.com', 'community.phonetalk.net'],
			blogs: ['techwithtom', 'mobile-insider'],
			reviews: ['www.trustpilot.com', 'play.google.com'],
		},
	},
	{
		name: 'Nordic Coffee Roasters',
		query: '"nordic coffee" OR nordicbrew* OR (nordic AND (espresso OR roast))',
		keywords: ['Nordic Coffee', 'NordicBrew', 'Nordic espresso', 'nordic coffee roasters'],
		names: ['Nordic Coffee', 'NordicBrew', 'Nordic Coffee Roasters'],
		competitor: 'Bean & Co',
		topics: {
			en: ['espresso blend', 'dark roast', 'fresh beans', 'café', 'coffee subscription', 'barista service'],
			pl: ['mieszanka espresso', 'stopień palenia', 'świeże ziarna', 'kawiarnia', 'subskrypcja kawy', 'obsługa w kawiarni'],
			de: ['Espressomischung', 'Röstung', 'frische Bohnen', 'Café', 'Kaffee-Abo', 'Service an der Bar'],
			fr: ['mélange espresso', 'torréfaction', 'grains frais', 'coffee shop', 'abonnement café', 'service au comptoir'],
			es: ['mezcla de espresso', 'tostado', 'granos frescos', 'cafetería', 'suscripción de café', 'atención en barra'],
			it: ['miscela espresso', 'tostatura', 'chicchi freschi', 'caffetteria', 'abbonamento caffè', 'servizio al banco'],
			pt: ['blend de espresso', 'torra', 'grãos frescos', 'cafeteria', 'assinatura de café', 'atendimento no balcão'],
			nl: ['espressomelange', 'branding', 'verse bonen', 'koffiebar', 'koffieabonnement', 'service aan de bar'],
			sv: ['espressoblandning', 'rostning', 'färska bönor', 'kafé', 'kaffeprenumeration', 'service i kaféet'],
			uk: ['еспресо-суміш', 'обсмаження', 'свіже зерно', "кав'ярня", 'підписка на каву', 'обслуговування баристи'],
		},
		communities: {
			subreddits: ['Coffee', 'espresso'],
			forums: ['community.homebrewers.net', 'forum.coffeegeeks.net'],
			blogs: ['kawa-i-ja', 'espresso-diaries'],
			reviews: ['www.tripadvisor.com', 'www.trustpilot.com', 'www.yelp.com'],
		},
	},
	{
		name: 'Vistula Bank',
		query: '"vistula bank" OR vistulabank OR (vistula AND (loan OR mortgage OR account))',
		keywords: ['Vistula Bank', 'VistulaBank', 'Vistula mortgage', 'Vistula account'],
		names: ['Vistula Bank', 'VistulaBank'],
		competitor: 'Baltic Credit',
		topics: {
			en: ['mortgage', 'account fees', 'mobile banking app', 'card payments', 'savings account', 'loan application'],
			pl: ['kredyt hipoteczny', 'opłaty za konto', 'aplikacja bankowa', 'płatności kartą', 'konto oszczędnościowe', 'wniosek kredytowy'],
			de: ['Baufinanzierung', 'Kontoführungsgebühren', 'Banking-App', 'Kartenzahlung', 'Sparkonto', 'Kreditantrag'],
			fr: ['prêt immobilier', 'frais de tenue de compte', 'application bancaire', 'paiement par carte', 'compte épargne', 'demande de crédit'],
			es: ['hipoteca', 'comisiones de la cuenta', 'app del banco', 'pagos con tarjeta', 'cuenta de ahorro', 'solicitud de préstamo'],
			it: ['mutuo', 'costi del conto', 'app della banca', 'pagamenti con carta', 'conto deposito', 'richiesta di prestito'],
			pt: ['financiamento imobiliário', 'tarifas da conta', 'app do banco', 'pagamentos com cartão', 'conta poupança', 'pedido de empréstimo'],
			nl: ['hypotheek', 'rekeningkosten', 'bankapp', 'kaartbetalingen', 'spaarrekening', 'leningaanvraag'],
			sv: ['bolån', 'kontoavgifter', 'bankappen', 'kortbetalningar', 'sparkonto', 'låneansökan'],
			uk: ['іпотека', 'комісія за рахунок', 'мобільний банкінг', 'оплата карткою', 'ощадний рахунок', 'заявка на кредит'],
		},
		communities: {
			subreddits: ['personalfinance', 'banking', 'poland'],
			forums: ['forum.money-talk.pl', 'community.savingsclub.net'],
			blogs: ['finanse-bez-tajemnic', 'moneysmart-diary'],
			reviews: ['www.opineo.pl', 'www.trustpilot.com', 'play.google.com'],
		},
	},
	{
		name: 'Orbit Airlines',
		query: '"orbit airlines" OR orbitair* NOT "orbit gum"',
		keywords: ['Orbit Airlines', 'OrbitAir', 'orbitair lounge'],
		names: ['Orbit Airlines', 'OrbitAir'],
		competitor: 'SkyJet',
		topics: {
			en: ['delayed flight', 'baggage allowance', 'online check-in', 'airport lounge', 'legroom', 'cabin crew'],
			pl: ['opóźniony lot', 'limit bagażu', 'odprawa online', 'saloniki na lotnisku', 'miejsce na nogi', 'załoga pokładowa'],
			de: ['Flugverspätung', 'Freigepäck', 'Online-Check-in', 'Lounge am Flughafen', 'Beinfreiheit', 'Kabinenpersonal'],
			fr: ['vol retardé', 'franchise bagages', 'enregistrement en ligne', "salon à l'aéroport", 'espace pour les jambes', 'équipage'],
			es: ['vuelo retrasado', 'equipaje permitido', 'check-in online', 'sala VIP del aeropuerto', 'espacio para las piernas', 'tripulación'],
			it: ['volo in ritardo', 'franchigia bagaglio', 'check-in online', 'lounge in aeroporto', 'spazio per le gambe', 'equipaggio'],
			pt: ['voo atrasado', 'franquia de bagagem', 'check-in online', 'sala VIP do aeroporto', 'espaço para as pernas', 'tripulação'],
			nl: ['vertraagde vlucht', 'bagagelimiet', 'online inchecken', 'lounge op de luchthaven', 'beenruimte', 'cabinepersoneel'],
			sv: ['försenat flyg', 'bagagegräns', 'incheckning online', 'lounge på flygplatsen', 'benutrymme', 'kabinpersonal'],
			uk: ['затримка рейсу', 'норма багажу', 'онлайн-реєстрація', 'бізнес-зала в аеропорту', 'місце для ніг', 'екіпаж'],
		},
		communities: {
			subreddits: ['travel', 'flights', 'europe'],
			forums: ['flyertalk-like.example.com', 'forum.travelers-lounge.net'],
			blogs: ['the-frequent-flyer', 'points-and-miles'],
			reviews: ['www.tripadvisor.com', 'www.trustpilot.com', 'www.airlinequality.com'],
		},
	},
	{
		name: 'GreenCart Delivery',
		query: 'greencart OR "green cart"',
		keywords: ['GreenCart', 'Green Cart', 'greencart courier'],
		names: ['GreenCart', 'Green Cart'],
		competitor: 'QuickBasket',
		topics: {
			en: ['delivery time', 'courier', 'fresh produce', 'packaging', 'delivery slot', 'refund for missing items'],
			pl: ['czas dostawy', 'kurier', 'świeże warzywa', 'opakowania', 'okno dostawy', 'zwrot za brakujące produkty'],
			de: ['Lieferzeit', 'Kurier', 'frisches Obst und Gemüse', 'Verpackung', 'Lieferfenster', 'Erstattung fehlender Artikel'],
			fr: ['délai de livraison', 'livreur', 'fruits et légumes frais', 'emballages', 'créneau de livraison', 'remboursement des articles manquants'],
			es: ['tiempo de entrega', 'repartidor', 'fruta y verdura fresca', 'embalaje', 'franja de entrega', 'reembolso de productos que faltan'],
			it: ['tempi di consegna', 'corriere', 'frutta e verdura fresca', 'imballaggi', 'fascia di consegna', 'rimborso dei prodotti mancanti'],
			pt: ['prazo de entrega', 'entregador', 'hortifrúti fresco', 'embalagens', 'janela de entrega', 'reembolso de itens faltantes'],
			nl: ['levertijd', 'bezorger', 'vers fruit en groente', 'verpakking', 'bezorgvenster', 'terugbetaling van ontbrekende producten'],
			sv: ['leveranstid', 'budet', 'färska grönsaker', 'förpackningar', 'leveransfönster', 'återbetalning för saknade varor'],
			uk: ['час доставки', "кур'єр", 'свіжі овочі', 'упаковка', 'інтервал доставки', 'повернення коштів за відсутні товари'],
		},
		communities: {
			subreddits: ['groceries', 'mealprep', 'europe'],
			forums: ['forum.zakupy-online.pl', 'community.homecooks.net'],
			blogs: ['annareviews', 'fresh-at-home'],
			reviews: ['www.trustpilot.com', 'play.google.com', 'www.opineo.pl'],
		},
	},
	{
		name: 'Helios Energy',
		query: '"helios energy" OR heliossolar OR (helios AND (solar OR tariff))',
		keywords: ['Helios Energy', 'HeliosSolar', 'Helios solar', 'Helios tariff'],
		names: ['Helios Energy', 'HeliosSolar'],
		competitor: 'Volta Power',
		topics: {
			en: ['solar panels', 'electricity tariff', 'energy bill', 'installation', 'heat pump', 'smart meter'],
			pl: ['panele fotowoltaiczne', 'taryfa za prąd', 'rachunek za prąd', 'montaż instalacji', 'pompa ciepła', 'inteligentny licznik'],
			de: ['Solaranlage', 'Stromtarif', 'Stromrechnung', 'Installation', 'Wärmepumpe', 'Smart Meter'],
			fr: ['panneaux solaires', "tarif d'électricité", "facture d'énergie", 'installation', 'pompe à chaleur', 'compteur intelligent'],
			es: ['paneles solares', 'tarifa eléctrica', 'factura de la luz', 'instalación', 'bomba de calor', 'contador inteligente'],
			it: ['pannelli solari', 'tariffa elettrica', 'bolletta della luce', 'installazione', 'pompa di calore', 'contatore intelligente'],
			pt: ['painéis solares', 'tarifa de energia', 'conta de luz', 'instalação', 'bomba de calor', 'medidor inteligente'],
			nl: ['zonnepanelen', 'energietarief', 'energierekening', 'installatie', 'warmtepomp', 'slimme meter'],
			sv: ['solpaneler', 'elavtal', 'elräkning', 'installation', 'värmepump', 'smart elmätare'],
			uk: ['сонячні панелі', 'тариф на електроенергію', 'рахунок за світло', 'монтаж', 'тепловий насос', 'розумний лічильник'],
		},
		communities: {
			subreddits: ['solar', 'energy', 'heatpumps'],
			forums: ['forum.fotowoltaika-info.pl', 'community.solar-owners.net'],
			blogs: ['green-home-diary', 'energy-explained'],
			reviews: ['www.trustpilot.com', 'www.opineo.pl'],
		},
	},
];

/** Topics of a project created through the API: what people say about any brand. */
const GENERIC_TOPICS: Topics = {
	en: ['customer service', 'prices', 'website', 'support team', 'latest announcement', 'newsletter'],
	pl: ['obsługa klienta', 'ceny', 'strona internetowa', 'infolinia', 'najnowsze ogłoszenie', 'newsletter'],
	de: ['Kundenservice', 'Preise', 'Website', 'Support-Team', 'neueste Ankündigung', 'Newsletter'],
	fr: ['service client', 'prix', 'site web', 'équipe support', 'dernière annonce', 'newsletter'],
	es: ['atención al cliente', 'precios', 'página web', 'equipo de soporte', 'último anuncio', 'boletín'],
	it: ['assistenza clienti', 'prezzi', 'sito web', 'team di supporto', 'ultimo annuncio', 'newsletter'],
	pt: ['atendimento ao cliente', 'preços', 'site', 'equipe de suporte', 'último anúncio', 'newsletter'],
	nl: ['klantenservice', 'prijzen', 'website', 'supportteam', 'laatste aankondiging', 'nieuwsbrief'],
	sv: ['kundtjänst', 'priser', 'webbplats', 'supportteam', 'senaste nyheten', 'nyhetsbrev'],
	uk: ['служба підтримки', 'ціни', 'вебсайт', 'команда підтримки', 'останнє оголошення', 'розсилка'],
};
const GENERIC_COMMUNITIES: Communities = {
	subreddits: ['europe', 'AskReddit'],
	forums: ['forum.consumer-voice.net'],
	blogs: ['annareviews'],
	reviews: ['www.trustpilot.com'],
};

/** Names by gender; `last` is one list when surnames do not change with gender. */
interface Names {
	Male: string[];
	Female: string[];
	last: string[] | { Male: string[]; Female: string[] };
}

/**
 * One language: sentence templates ({kw} a name of the project, {topic} one of its topics,
 * {opinion} a whole sentence of the mood, {tag} a hashtag, {handle} the brand's handle,
 * {competitor}, {outlet}); `negative` templates only carry negative opinions. Opinions are whole
 * sentences and topics stand on their own (after a colon, a dash or a "topic:" label), so no
 * template needs a grammatical case or gender.
 */
interface LanguageText {
	templates: string[];
	negative: string[];
	opinions: Record<Mood, string[]>;
	titles: string[];
	parents: string[];
	names: Names;
	/** News sites (Websites source) writing in this language. */
	news: string[];
	/** The language's own subreddit, where some of its Reddit mentions are posted. */
	subreddit?: string;
}

const TEXTS: Record<TextLanguage, LanguageText> = {
	en: {
		templates: [
			'{kw} {topic}: {opinion}',
			'Has anyone else tried the {topic} at {kw}? {opinion}',
			'Honestly, the {kw} {topic}? {opinion} {tag}',
			'Dear @{handle}, about the {kw} {topic}: {opinion}',
			'Comparing {kw} with {competitor} on {topic}. {opinion}',
			'My friend asked me about the {topic} at {kw}. {opinion}',
			'Update on {kw}: the {topic}, according to {outlet}. {opinion}',
		],
		negative: ['Third time this week with the {topic} at {kw}. {opinion} Customer service, please reply!'],
		opinions: {
			Positive: ['Absolutely great.', 'Works like a charm.', 'Made my day!', 'Exceeded my expectations.', 'Worth every penny.', 'So much better than last year.'],
			Negative: ['A total disaster.', 'Let me down again.', 'Terrible, for the third time this month.', 'Still not fixed after weeks.', 'Way too expensive for what you get.', 'What a nightmare.'],
			Neutral: ['Announced today.', 'Some changes start next month.', 'It is being discussed on the forum.', 'More details next week.', 'Does anyone know more?'],
		},
		titles: [
			'Review: {kw} after two weeks',
			'{kw} and its {topic}: what changed',
			'Why everyone is talking about the {kw} {topic}',
			'{kw} vs {competitor}: which one to pick',
			'What the {kw} {topic} means for customers',
			'Hands-on with {kw}',
		],
		parents: [
			'What do you think about the {topic} at {kw}?',
			'Is it just me or has the {kw} {topic} changed lately?',
			'{kw} just posted an update about the {topic}.',
		],
		names: {
			Male: ['John', 'Liam', 'Noah', 'Tom', 'James', 'Ethan', 'Rahul'],
			Female: ['Emma', 'Olivia', 'Sophie', 'Grace', 'Chloe', 'Amelia', 'Priya'],
			last: ['Smith', 'Brown', 'Taylor', 'Johnson', 'Williams', 'Walker', 'Clarke', 'Patel'],
		},
		news: ['techdaily.com', 'morningpost.co.uk', 'cityherald.com', 'marketwatchers.net', 'gadgetreview.com'],
	},
	pl: {
		templates: [
			'{kw} – {topic}. {opinion}',
			'Ktoś jeszcze ma doświadczenie z {kw}? Chodzi o temat: {topic}. {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} czy {competitor}? Temat: {topic}. {opinion}',
		],
		negative: ['Trzeci raz w tym tygodniu: {kw}, {topic}. {opinion} Czekam na odpowiedź!'],
		opinions: {
			Positive: ['Polecam każdemu!', 'Super sprawa, naprawdę warto.', 'Pozytywne zaskoczenie.', 'Bez zarzutu.', 'Wreszcie działa jak należy.'],
			Negative: ['Porażka.', 'Nie polecam.', 'Znowu to samo, mam dość.', 'Dramat, szkoda słów.', 'Za drogo jak na to, co oferują.'],
			Neutral: ['Są jakieś nowe informacje?', 'Zobaczymy, co z tego wyjdzie.', 'Podobno zmiany od przyszłego miesiąca.', 'Szczegóły na ich stronie.'],
		},
		titles: ['Recenzja: {kw} po dwóch tygodniach', '{kw} kontra {competitor}: co wybrać?', '{kw}: {topic} pod lupą'],
		parents: ['Co sądzicie o {kw}? Temat: {topic}.', 'Nowy wpis od {kw}, temat: {topic}.'],
		names: {
			Male: ['Jan', 'Piotr', 'Tomasz', 'Kamil', 'Michał', 'Paweł'],
			Female: ['Anna', 'Zofia', 'Kasia', 'Magdalena', 'Agnieszka', 'Ewa'],
			last: {
				Male: ['Kowalski', 'Nowak', 'Wiśniewski', 'Wójcik', 'Lewandowski', 'Zieliński'],
				Female: ['Kowalska', 'Nowak', 'Wiśniewska', 'Wójcik', 'Lewandowska', 'Zielińska'],
			},
		},
		news: ['wiadomosci-dnia.pl', 'biznesteraz.pl'],
		subreddit: 'Polska',
	},
	de: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Hat jemand Erfahrung mit {kw}? Thema {topic}: {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} oder {competitor}? Beim Thema {topic}: {opinion}',
		],
		negative: ['Zum dritten Mal diese Woche: {kw}, {topic}. {opinion} Bitte meldet euch!'],
		opinions: {
			Positive: ['Echt top!', 'Sehr zufrieden.', 'Klare Empfehlung.', 'Besser als erwartet.', 'Jeden Cent wert.'],
			Negative: ['Eine Katastrophe.', 'Total enttäuscht.', 'Schon wieder dasselbe Problem.', 'Viel zu teuer für das, was man bekommt.', 'Nie wieder.'],
			Neutral: ['Heute angekündigt.', 'Ab nächstem Monat gibt es Änderungen.', 'Weiß jemand mehr?', 'Details folgen nächste Woche.'],
		},
		titles: ['Test: {kw} nach zwei Wochen', '{kw} gegen {competitor}: Was ist besser?', '{kw}: {topic} im Check'],
		parents: ['Was haltet ihr von {kw}? Thema {topic}.', 'Neuer Beitrag von {kw} zum Thema {topic}.'],
		names: {
			Male: ['Lukas', 'Jonas', 'Felix', 'Stefan', 'Max'],
			Female: ['Lea', 'Anna', 'Julia', 'Sabine', 'Laura'],
			last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner'],
		},
		news: ['tagesblick.de', 'wirtschaft-heute.de'],
		subreddit: 'de',
	},
	fr: {
		templates: [
			'{kw} – {topic} : {opinion}',
			'Quelqu’un a déjà testé {kw} ? Côté {topic} : {opinion}',
			'{kw}, {topic} ? {opinion} @{handle} {tag}',
			'{kw} ou {competitor} ? Côté {topic} : {opinion}',
		],
		negative: ['Troisième fois cette semaine : {kw}, {topic}. {opinion} Merci de répondre !'],
		opinions: {
			Positive: ['Franchement génial.', 'Ça marche parfaitement.', 'Je recommande !', 'Mieux que prévu.', 'Ça vaut vraiment le coup.'],
			Negative: ['Une catastrophe.', 'Quelle déception.', 'Toujours le même problème.', 'Beaucoup trop cher pour ce que c’est.', 'À éviter.'],
			Neutral: ['Annoncé aujourd’hui.', 'Des changements le mois prochain.', 'Quelqu’un en sait plus ?', 'Plus de détails la semaine prochaine.'],
		},
		titles: ['Test : {kw} après deux semaines', '{kw} contre {competitor} : lequel choisir ?', '{kw} : {topic} à la loupe'],
		parents: ['Vous pensez quoi de {kw} ? Côté {topic}.', 'Nouvelle publication de {kw} sur le sujet : {topic}.'],
		names: {
			Male: ['Louis', 'Hugo', 'Julien', 'Thomas', 'Antoine'],
			Female: ['Chloé', 'Camille', 'Léa', 'Manon', 'Julie'],
			last: ['Dubois', 'Martin', 'Bernard', 'Lefèvre', 'Moreau', 'Laurent'],
		},
		news: ['lequotidien-eco.fr', 'actu-conso.fr'],
		subreddit: 'france',
	},
	es: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'¿Alguien más ha probado {kw}? Tema {topic}: {opinion}',
			'{kw}, ¿{topic}? {opinion} @{handle} {tag}',
			'¿{kw} o {competitor}? Tema {topic}: {opinion}',
		],
		negative: ['Tercera vez esta semana: {kw}, {topic}. {opinion} ¡Respondan, por favor!'],
		opinions: {
			Positive: ['¡Una maravilla!', 'Funciona perfecto.', 'Lo recomiendo.', 'Mejor de lo esperado.', 'Vale la pena.'],
			Negative: ['Un desastre.', 'Qué decepción.', 'Otra vez el mismo problema.', 'Carísimo para lo que ofrecen.', 'No lo recomiendo.'],
			Neutral: ['Lo anunciaron hoy.', 'Habrá cambios el mes que viene.', '¿Alguien sabe algo más?', 'Más detalles la semana que viene.'],
		},
		titles: ['Análisis: {kw} después de dos semanas', '{kw} contra {competitor}: ¿cuál elegir?', '{kw}: {topic} a examen'],
		parents: ['¿Qué opináis de {kw}? Tema: {topic}.', 'Nueva publicación de {kw} sobre el tema: {topic}.'],
		names: {
			Male: ['Diego', 'Javier', 'Carlos', 'Pablo', 'Alejandro'],
			Female: ['Lucía', 'María', 'Sofía', 'Carmen', 'Elena'],
			last: ['García', 'López', 'Martínez', 'Sánchez', 'Fernández', 'Ruiz'],
		},
		news: ['diario-actual.es', 'economia-hoy.es'],
		subreddit: 'spain',
	},
	it: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Qualcuno ha già provato {kw}? Tema {topic}: {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} o {competitor}? Sul tema {topic}: {opinion}',
		],
		negative: ['Terza volta questa settimana: {kw}, {topic}. {opinion} Rispondete, per favore!'],
		opinions: {
			Positive: ['Davvero fantastico.', 'Funziona alla perfezione.', 'Lo consiglio!', 'Meglio del previsto.', 'Ne vale davvero la pena.'],
			Negative: ['Un disastro.', 'Che delusione.', 'Sempre lo stesso problema.', 'Troppo caro per quello che offre.', 'Da evitare.'],
			Neutral: ['Annunciato oggi.', 'Ci saranno cambiamenti il mese prossimo.', 'Qualcuno ne sa di più?', 'Altri dettagli la settimana prossima.'],
		},
		titles: ['Recensione: {kw} dopo due settimane', '{kw} contro {competitor}: quale scegliere?', '{kw}: {topic} sotto la lente'],
		parents: ['Cosa ne pensate di {kw}? Tema: {topic}.', 'Nuovo post di {kw} sul tema: {topic}.'],
		names: {
			Male: ['Marco', 'Luca', 'Giuseppe', 'Matteo', 'Andrea'],
			Female: ['Giulia', 'Chiara', 'Francesca', 'Sara', 'Elena'],
			last: ['Rossi', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Esposito'],
		},
		news: ['notizie-oggi.it', 'economia-italiana.it'],
		subreddit: 'italy',
	},
	pt: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Alguém já testou {kw}? Assunto: {topic}. {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} ou {competitor}? No quesito {topic}: {opinion}',
		],
		negative: ['Terceira vez nesta semana: {kw}, {topic}. {opinion} Respondam, por favor!'],
		opinions: {
			Positive: ['Simplesmente ótimo.', 'Funciona perfeitamente.', 'Recomendo!', 'Melhor do que eu esperava.', 'Vale muito a pena.'],
			Negative: ['Um desastre.', 'Que decepção.', 'De novo o mesmo problema.', 'Caro demais pelo que oferecem.', 'Não recomendo.'],
			Neutral: ['Anunciado hoje.', 'Vai mudar no mês que vem.', 'Alguém sabe mais?', 'Mais detalhes na semana que vem.'],
		},
		titles: ['Análise: {kw} depois de duas semanas', '{kw} contra {competitor}: qual escolher?', '{kw}: {topic} em detalhe'],
		parents: ['O que vocês acham de {kw}? Assunto: {topic}.', 'Nova publicação de {kw} sobre o assunto: {topic}.'],
		names: {
			Male: ['João', 'Pedro', 'Lucas', 'Rafael', 'Tiago'],
			Female: ['Ana', 'Beatriz', 'Mariana', 'Juliana', 'Inês'],
			last: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Costa', 'Pereira'],
		},
		news: ['jornal-do-dia.com.br', 'economia-agora.pt'],
		subreddit: 'brasil',
	},
	nl: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Heeft iemand ervaring met {kw}? Onderwerp: {topic}. {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} of {competitor}? Qua {topic}: {opinion}',
		],
		negative: ['Al de derde keer deze week: {kw}, {topic}. {opinion} Graag een reactie!'],
		opinions: {
			Positive: ['Echt top!', 'Werkt perfect.', 'Aanrader!', 'Beter dan verwacht.', 'Elke cent waard.'],
			Negative: ['Een ramp.', 'Wat een teleurstelling.', 'Alweer hetzelfde probleem.', 'Veel te duur voor wat je krijgt.', 'Nooit meer.'],
			Neutral: ['Vandaag aangekondigd.', 'Volgende maand verandert er iets.', 'Weet iemand meer?', 'Meer details volgende week.'],
		},
		titles: ['Review: {kw} na twee weken', '{kw} tegen {competitor}: wat kies je?', '{kw}: {topic} onder de loep'],
		parents: ['Wat vinden jullie van {kw}? Onderwerp: {topic}.', 'Nieuw bericht van {kw} over het onderwerp {topic}.'],
		names: {
			Male: ['Daan', 'Sem', 'Thijs', 'Bram', 'Ruben'],
			Female: ['Emma', 'Sanne', 'Lotte', 'Fleur', 'Anouk'],
			last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser'],
		},
		news: ['dagnieuws.nl', 'consumentenblad.nl'],
		subreddit: 'thenetherlands',
	},
	sv: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Har någon testat {kw}? Ämne: {topic}. {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} eller {competitor}? När det gäller {topic}: {opinion}',
		],
		negative: ['Tredje gången den här veckan: {kw}, {topic}. {opinion} Svara gärna!'],
		opinions: {
			Positive: ['Helt fantastiskt.', 'Fungerar perfekt.', 'Rekommenderas!', 'Bättre än väntat.', 'Värt varenda krona.'],
			Negative: ['En katastrof.', 'Vilken besvikelse.', 'Samma problem igen.', 'Alldeles för dyrt för vad man får.', 'Aldrig mer.'],
			Neutral: ['Presenterades i dag.', 'Det blir ändringar nästa månad.', 'Vet någon mer?', 'Mer information nästa vecka.'],
		},
		titles: ['Recension: {kw} efter två veckor', '{kw} mot {competitor}: vilket ska man välja?', '{kw}: {topic} under lupp'],
		parents: ['Vad tycker ni om {kw}? Ämne: {topic}.', 'Nytt inlägg från {kw} om {topic}.'],
		names: {
			Male: ['Erik', 'Lars', 'Oskar', 'Johan', 'Anders'],
			Female: ['Elsa', 'Maja', 'Ingrid', 'Karin', 'Astrid'],
			last: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Svensson', 'Lindqvist'],
		},
		news: ['dagsnytt.se', 'ekonominytt.se'],
		subreddit: 'sweden',
	},
	uk: {
		templates: [
			'{kw} – {topic}: {opinion}',
			'Хтось уже пробував {kw}? Тема «{topic}»: {opinion}',
			'{kw}, {topic}? {opinion} @{handle} {tag}',
			'{kw} чи {competitor}? Тема «{topic}»: {opinion}',
		],
		negative: ['Утретє за тиждень: {kw}, {topic}. {opinion} Відповідайте, будь ласка!'],
		opinions: {
			Positive: ['Просто чудово.', 'Працює ідеально.', 'Рекомендую!', 'Краще, ніж очікувалося.', 'Варте своїх грошей.'],
			Negative: ['Це катастрофа.', 'Яке розчарування.', 'Знову та сама проблема.', 'Занадто дорого як на таку якість.', 'Не рекомендую.'],
			Neutral: ['Сьогодні оголосили.', 'Наступного місяця будуть зміни.', 'Хтось знає більше?', 'Подробиці наступного тижня.'],
		},
		titles: ['Огляд: {kw} через два тижні', '{kw} проти {competitor}: що обрати?', '{kw}: {topic} під лупою'],
		parents: ['Що думаєте про {kw}? Тема: {topic}.', 'Новий допис від {kw} на тему «{topic}».'],
		names: {
			// as most Ukrainian profiles on international platforms spell them
			Male: ['Oleksandr', 'Andrii', 'Dmytro', 'Taras', 'Serhii'],
			Female: ['Olena', 'Oksana', 'Iryna', 'Kateryna', 'Natalia'],
			last: ['Shevchenko', 'Kovalenko', 'Bondarenko', 'Tkachenko', 'Melnyk', 'Kravchenko'],
		},
		news: ['novyny-dnia.ua', 'ekonomika.com.ua'],
		subreddit: 'ukraine',
	},
};

const OUTLETS = ['TechDaily', 'the Morning Post', 'City Herald', 'MarketWatchers', 'Gadget Review'];
const TAG_NAMES = ['complaint', 'lead', 'press', 'vip', 'follow-up', 'crisis', 'praise'];

const SOURCE_WEIGHTS: Array<readonly [SourceType, number]> = [
	['Facebook', 18],
	['X', 16],
	['Websites', 14],
	['Instagram', 10],
	['Reddit', 7],
	['Forums', 6],
	['Blogs', 6],
	['TikTok', 6],
	['Video', 6],
	['Reviews', 5],
	['Other', 4],
	['Imported', 2],
];

const TYPE_BY_SOURCE: Record<SourceType, Array<readonly [MentionType, number]>> = {
	Facebook: [['Post', 35], ['Comment', 45], ['Share', 10], ['PrivateMessage', 10]],
	X: [['Post', 55], ['Comment', 25], ['Share', 15], ['PrivateMessage', 5]],
	Instagram: [['Post', 45], ['Comment', 45], ['PrivateMessage', 10]],
	TikTok: [['Post', 50], ['Comment', 50]],
	Reddit: [['Post', 35], ['Comment', 65]],
	Forums: [['Post', 40], ['Comment', 60]],
	Websites: [['Article', 85], ['Comment', 15]],
	Blogs: [['Article', 80], ['Comment', 20]],
	Reviews: [['Post', 100]],
	Video: [['Post', 60], ['Comment', 40]],
	Imported: [['Post', 30], ['Comment', 30], ['Article', 20], ['Share', 10], ['PrivateMessage', 10]],
	Other: [['Post', 40], ['Article', 30], ['Comment', 30]],
};

const GENDER_WEIGHTS = [
	['Male', 40],
	['Female', 40],
	['Unspecified', 20],
] as const;

const SENTIMENT_WEIGHTS: Array<readonly [Sentiment, number]> = [
	['Positive', 30],
	['Negative', 25],
	['Neutral', 40],
	['Unspecified', 5],
];

const LANGUAGE_WEIGHTS: Array<readonly [string | null, number]> = [
	['en', 38],
	['pl', 15],
	['de', 8],
	['en-gb', 6],
	['fr', 6],
	['es', 6],
	['it', 4],
	['pt', 4],
	['nl', 3],
	['sv', 2],
	['uk', 2],
	[null, 4],
];

/** Where a language is written (repeats weigh a country more). */
const COUNTRY_BY_LANGUAGE: Record<string, string[]> = {
	en: ['US', 'US', 'GB', 'IN', 'CA', 'AU'],
	'en-gb': ['GB'],
	pl: ['PL'],
	de: ['DE', 'DE', 'AT'],
	fr: ['FR'],
	es: ['ES', 'ES', 'MX'],
	it: ['IT'],
	pt: ['BR', 'BR', 'PT'],
	nl: ['NL'],
	sv: ['SE'],
	uk: ['UA'],
};
/** Countries of mentions whose language was not detected. */
const ALL_COUNTRIES = ['PL', 'US', 'GB', 'DE', 'FR', 'ES', 'IT', 'BR', 'IN', 'NL', 'SE', 'UA'];

const CITIES: Record<string, Array<[string, string, number, number]>> = {
	PL: [['Mazowieckie', 'Warszawa', 52.2297, 21.0122], ['Pomorskie', 'Gdańsk', 54.352, 18.6466], ['Małopolskie', 'Kraków', 50.0647, 19.945]],
	US: [['New York', 'New York', 40.7128, -74.006], ['California', 'San Francisco', 37.7749, -122.4194], ['Texas', 'Austin', 30.2672, -97.7431]],
	GB: [['England', 'London', 51.5072, -0.1276], ['Scotland', 'Edinburgh', 55.9533, -3.1883]],
	DE: [['Berlin', 'Berlin', 52.52, 13.405], ['Bayern', 'München', 48.1351, 11.582]],
	FR: [['Île-de-France', 'Paris', 48.8566, 2.3522]],
	ES: [['Madrid', 'Madrid', 40.4168, -3.7038]],
	IT: [['Lazio', 'Roma', 41.9028, 12.4964]],
	BR: [['São Paulo', 'São Paulo', -23.5505, -46.6333]],
	IN: [['Karnataka', 'Bengaluru', 12.9716, 77.5946]],
	CA: [['Ontario', 'Toronto', 43.6532, -79.3832]],
	AU: [['New South Wales', 'Sydney', -33.8688, 151.2093]],
	AT: [['Wien', 'Wien', 48.2082, 16.3738]],
	MX: [['Ciudad de México', 'Ciudad de México', 19.4326, -99.1332]],
	PT: [['Lisboa', 'Lisboa', 38.7223, -9.1393]],
	NL: [['Noord-Holland', 'Amsterdam', 52.3676, 4.9041]],
	SE: [['Stockholms län', 'Stockholm', 59.3293, 18.0686]],
	UA: [['Kyiv', 'Kyiv', 50.4501, 30.5234]],
};

// ---------------------------------------------------------------------------------------------
// Generator

const DAY = 24 * 3600 * 1000;

const compiled = new Map<string, string[]>();

/** Fill {placeholders}; templates are split once (even indexes literal, odd indexes names). */
function fill(template: string, vars: Record<string, string>): string {
	let parts = compiled.get(template);
	if (!parts) {
		parts = template.split(/\{(\w+)\}/);
		compiled.set(template, parts);
	}
	let out = '';
	for (let i = 0; i < parts.length; i++) out += i % 2 ? (vars[parts[i]] ?? '') : parts[i];
	return out;
}

const hashtags = new Map<string, string>();
function hashtag(kw: string): string {
	let h = hashtags.get(kw);
	if (h === undefined) {
		h = '#' + kw.replace(/[^\p{L}\p{N}]+/gu, '');
		hashtags.set(kw, h);
	}
	return h;
}

interface ProjectText {
	handle: string;
	slug: string;
}
const projectTexts = new Map<string, ProjectText>();
function projectText(name: string): ProjectText {
	let t = projectTexts.get(name);
	if (!t) {
		t = {
			handle: name.replace(/[^A-Za-z0-9]+/g, ''),
			slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
		};
		projectTexts.set(name, t);
	}
	return t;
}

/** What a project's mentions talk about, and where. */
interface ProjectProfile {
	/** The names people write (empty: the project's keywords). */
	names: string[];
	competitor: string | null;
	topics: Topics;
	communities: Communities;
}
const profiles = new Map<string, ProjectProfile>();
/**
 * A project's profile: its template's, found by the query (a renamed project or a numbered repeat
 * keeps it); a project created through the API talks about what any brand has.
 */
function projectProfile(project: Project): ProjectProfile {
	let p = profiles.get(project.query);
	if (!p) {
		const t = PROJECT_TEMPLATES.find((x) => x.query === project.query);
		p = t
			? { names: t.names, competitor: t.competitor, topics: t.topics, communities: t.communities }
			: { names: [], competitor: null, topics: GENERIC_TOPICS, communities: GENERIC_COMMUNITIES };
		profiles.set(project.query, p);
	}
	return p;
}

/** The language a mention is written in, by its language code (none detected: English). */
const TEXT_LANGUAGE: Record<string, TextLanguage> = {
	en: 'en',
	'en-gb': 'en',
	pl: 'pl',
	de: 'de',
	fr: 'fr',
	es: 'es',
	it: 'it',
	pt: 'pt',
	nl: 'nl',
	sv: 'sv',
	uk: 'uk',
};

interface TemplatePools {
	any: string[];
	negative: string[];
	titles: string[];
}
/** Each language's templates, with and without the ones naming a competitor (none for API projects). */
const POOLS = (withCompetitor: boolean): Record<TextLanguage, TemplatePools> => {
	const keep = (list: string[]) => (withCompetitor ? list : list.filter((t) => !t.includes('{competitor}')));
	return Object.fromEntries(
		(Object.keys(TEXTS) as TextLanguage[]).map((code) => {
			const t = TEXTS[code];
			return [code, { any: keep(t.templates), negative: keep([...t.templates, ...t.negative]), titles: keep(t.titles) }];
		}),
	) as Record<TextLanguage, TemplatePools>;
};
const POOLS_WITH_COMPETITOR = POOLS(true);
const POOLS_WITHOUT_COMPETITOR = POOLS(false);

const handles = new Map<string, string>();
/** A social handle from a person's name: letters without diacritics, the rest `_`. */
function handleBase(name: string): string {
	let h = handles.get(name);
	if (h === undefined) {
		h = name
			.normalize('NFD')
			.replace(/[\u0300-\u036f]/g, '')
			.replace(/ł/g, 'l')
			.replace(/Ł/g, 'L')
			.toLowerCase()
			.replace(/[^a-z]+/g, '_');
		handles.set(name, h);
	}
	return h;
}

export class MentionFactory {
	private readonly rng: Rng;
	private readonly ids: Set<string>;

	constructor(rng: Rng, ids: Set<string>) {
		this.rng = rng;
		this.ids = ids;
	}

	private newId(): string {
		for (;;) {
			const id = this.rng.hex(24);
			if (!this.ids.has(id)) {
				this.ids.add(id);
				return id;
			}
		}
	}

	/** A name of the language; of the gender when it is known. */
	private personName(text: LanguageText, gender: 'Male' | 'Female' | 'Unspecified'): string {
		const r = this.rng;
		const g = gender === 'Unspecified' ? (r.chance(0.5) ? 'Male' : 'Female') : gender;
		const last = Array.isArray(text.names.last) ? text.names.last : text.names.last[g];
		return `${r.pick(text.names[g])} ${r.pick(last)}`;
	}

	private handle(name: string): string {
		return handleBase(name) + this.rng.int(1, 999);
	}

	private source(type: SourceType, project: Project, author: string, text: LanguageText, communities: Communities): Source {
		const r = this.rng;
		const { slug, handle: page } = projectText(project.name);
		switch (type) {
			case 'Facebook':
				return {
					socialChannel: { id: r.digits(15), name: r.chance(0.6) ? `${project.name}` : `${project.name} Fans` },
					mentionUrl: `https://www.facebook.com/${page}/posts/${r.digits(16)}`,
					type,
				};
			case 'X': {
				const h = this.handle(author);
				return {
					socialChannel: { id: r.digits(18), name: `@${h}` },
					mentionUrl: `https://x.com/${h}/status/${r.digits(19)}`,
					type,
				};
			}
			case 'Instagram':
				return {
					socialChannel: { id: r.digits(11), name: this.handle(author) },
					mentionUrl: `https://www.instagram.com/p/${r.alnum(11)}/`,
					type,
				};
			case 'TikTok': {
				const h = this.handle(author);
				return {
					socialChannel: { id: r.digits(19), name: `@${h}` },
					mentionUrl: `https://www.tiktok.com/@${h}/video/${r.digits(19)}`,
					type,
				};
			}
			case 'Reddit': {
				const sub = text.subreddit && r.chance(0.5) ? text.subreddit : r.pick(communities.subreddits);
				return {
					socialChannel: { id: `t5_${r.hex(6)}`, name: `r/${sub}` },
					mentionUrl: `https://www.reddit.com/r/${sub}/comments/${r.hex(7)}/${slug}/`,
					type,
				};
			}
			case 'Forums': {
				const site = r.pick(communities.forums);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://${site}/thread/${r.int(1000, 999999)}-${slug}`,
					type,
				};
			}
			case 'Websites': {
				const site = r.pick(text.news);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://www.${site}/${r.pick(['business', 'tech', 'news', 'money'])}/${slug}-${r.hex(6)}`,
					type,
				};
			}
			case 'Blogs': {
				const b = r.pick(communities.blogs);
				return {
					socialChannel: { id: null, name: b },
					mentionUrl: `https://${b}.blogspot.com/2026/${String(r.int(1, 12)).padStart(2, '0')}/${slug}.html`,
					type,
				};
			}
			case 'Reviews': {
				const site = r.pick(communities.reviews);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://${site}/review/${slug}?r=${r.hex(8)}`,
					type,
				};
			}
			case 'Video':
				return {
					socialChannel: { id: `UC${r.alnum(22)}`, name: `${author.split(' ')[0]} Reviews` },
					mentionUrl: `https://www.youtube.com/watch?v=${r.alnum(11)}`,
					type,
				};
			case 'Imported':
				return {
					socialChannel: { id: null, name: null },
					mentionUrl: `https://import.sentione.com/item/${r.hex(16)}`,
					type,
				};
			default:
				return {
					socialChannel: { id: null, name: r.chance(0.5) ? null : 'misc-site.net' },
					mentionUrl: `https://misc-site.net/${slug}/${r.int(1, 99999)}`,
					type,
				};
		}
	}

	private metrics(type: SourceType): EngagementMetrics {
		const r = this.rng;
		const count = (median: number, pNull: number): number | null =>
			r.chance(pNull) ? null : Math.max(0, Math.round(r.logNormal(median, 1.4)));
		const video = type === 'Video' || type === 'TikTok';
		const em: EngagementMetrics = {
			influenceScore: r.chance(0.15) ? null : r.int(1, 10),
			engagementRate: r.chance(0.25) ? null : Math.round(r.next() * 0.2 * 10000) / 10000,
			sourceMetrics: {
				common: {
					likeCount: count(12, 0.1),
					shareCount: count(2, 0.25),
					commentCount: count(3, 0.2),
					viewCount: video ? count(5000, 0.05) : count(200, 0.6),
				},
				facebook: null,
				newsAggregators: null,
				twitter: null,
			},
		};
		if (type === 'Facebook') {
			const c = () => Math.round(r.logNormal(3, 1.2));
			em.sourceMetrics.facebook = {
				likeCount: c(),
				loveCount: c(),
				hahaCount: c(),
				wowCount: c(),
				sadCount: c(),
				angryCount: c(),
			};
		}
		if (type === 'X') {
			em.sourceMetrics.twitter = {
				retweetsCount: Math.round(r.logNormal(2, 1.3)),
				favouritesCount: Math.round(r.logNormal(10, 1.3)),
			};
		}
		if (type === 'Websites' && r.chance(0.3)) {
			em.sourceMetrics.newsAggregators = {
				digsCount: r.int(0, 80),
				burrowsCount: r.int(0, 30),
			};
		}
		return em;
	}

	private location(language: string | null): Location | null | undefined {
		const r = this.rng;
		const roll = r.next();
		if (roll < 0.2) return undefined;
		if (roll < 0.25) return null;
		const country = r.chance(0.1)
			? null
			: r.pick(language && COUNTRY_BY_LANGUAGE[language] ? COUNTRY_BY_LANGUAGE[language] : ALL_COUNTRIES);
		const place = country && CITIES[country] && r.chance(0.7) ? r.pick(CITIES[country]) : null;
		return {
			coordinates:
				place && r.chance(0.6)
					? {
							latitude: Math.round((place[2] + (r.next() - 0.5) * 0.1) * 1e5) / 1e5,
							longitude: Math.round((place[3] + (r.next() - 0.5) * 0.1) * 1e5) / 1e5,
						}
					: null,
			country: country ? { code: country } : null,
			region: place ? place[0] : null,
			city: place && r.chance(0.85) ? place[1] : null,
		};
	}

	private attachments(): Attachment[] {
		const r = this.rng;
		if (r.chance(0.7)) return [];
		const n = r.int(1, 3);
		const out: Attachment[] = [];
		for (let i = 0; i < n; i++) {
			const type = r.weighted([
				['Image', 70],
				['Video', 20],
				['Other', 10],
			] as const);
			const ext = type === 'Image' ? 'jpg' : type === 'Video' ? 'mp4' : 'pdf';
			out.push({ url: `https://cdn.sentione-media.com/att/${r.hex(20)}.${ext}`, type });
		}
		return out;
	}

	/** Build one mention of a project, published and collected at the given instants. */
	make(project: Project, pubMs: number, colMs: number): Mention {
		const r = this.rng;
		const sourceType = r.weighted(SOURCE_WEIGHTS);
		const type = r.weighted(TYPE_BY_SOURCE[sourceType]);
		const sentiment = r.weighted(SENTIMENT_WEIGHTS);
		const language = r.weighted(LANGUAGE_WEIGHTS);
		const textLanguage = language ? (TEXT_LANGUAGE[language] ?? 'en') : 'en';
		const lang = TEXTS[textLanguage];
		const profile = projectProfile(project);
		const names = profile.names.length ? profile.names : project.keywords.length ? project.keywords : [project.name];
		const kw = r.pick(names);
		const pt = projectText(project.name);
		const mood: Mood = sentiment === 'Unspecified' ? 'Neutral' : sentiment;
		const pools = (profile.competitor ? POOLS_WITH_COMPETITOR : POOLS_WITHOUT_COMPETITOR)[textLanguage];
		const gender = r.weighted(GENDER_WEIGHTS);
		const authorName = this.personName(lang, gender);
		const vars: Record<string, string> = {
			kw,
			topic: r.pick(profile.topics[textLanguage]),
			opinion: r.pick(lang.opinions[mood]),
			tag: hashtag(kw),
			outlet: r.pick(OUTLETS),
			handle: pt.handle,
			competitor: profile.competitor ?? '',
		};
		const text = fill(r.pick(mood === 'Negative' ? pools.negative : pools.any), vars);

		const orgLike = sourceType === 'Websites' || sourceType === 'Imported' || sourceType === 'Other';
		const source = this.source(sourceType, project, authorName, lang, profile.communities);
		const author = {
			id: r.chance(orgLike ? 0.6 : 0.08) ? null : r.digits(r.int(8, 18)),
			name: r.chance(orgLike ? 0.3 : 0.03) ? null : authorName,
			avatar: r.chance(0.3)
				? null
				: { url: `https://cdn.sentione-media.com/avatars/${r.hex(16)}.jpg`, type: 'Image' as const },
			gender,
			influenceMetrics: {
				followerCount: r.chance(0.2) ? null : Math.round(r.logNormal(800, 1.8)),
				fanCount: sourceType === 'Facebook' && r.chance(0.5) ? Math.round(r.logNormal(3000, 1.5)) : null,
			},
		};
		const content: Mention['content'] = {
			text: r.chance(0.02) ? null : text,
			language: language ? { code: language } : null,
			sentiment,
		};
		const engagementMetrics = this.metrics(sourceType);
		const location = this.location(language);
		const attachments = this.attachments();
		// Field order as in the spec's table; location only when available.
		const mention: Mention =
			location === undefined
				? {
						id: this.newId(),
						author,
						source,
						type,
						publishedAt: new Date(pubMs).toISOString(),
						collectedAt: new Date(colMs).toISOString(),
						content,
						engagementMetrics,
						attachments,
					}
				: {
						id: this.newId(),
						author,
						source,
						type,
						publishedAt: new Date(pubMs).toISOString(),
						collectedAt: new Date(colMs).toISOString(),
						content,
						engagementMetrics,
						location,
						attachments,
					};

		// Announced additions on some mentions.
		const titled =
			type === 'Article' || sourceType === 'Video' || sourceType === 'Blogs' || sourceType === 'Reviews';
		if (titled && r.chance(0.85)) mention.content.title = fill(r.pick(pools.titles), vars);
		if (sourceType === 'Reviews' && r.chance(0.9)) {
			const max = r.chance(0.7) ? 5 : 10;
			const value =
				mood === 'Positive' ? r.int(max - 1, max) : mood === 'Negative' ? r.int(1, 2) : r.int(2, max - 1);
			mention.content.review = {
				rating: { value, scale: { min: 1, max, percent: Math.round(((value - 1) / (max - 1)) * 100) } },
			};
		}
		const social = !orgLike && sourceType !== 'Reviews';
		if (social && (type === 'Comment' || r.chance(0.4))) {
			// threads in one language: a reply is written in its thread's language
			const thread = `${sourceType}|${textLanguage}`;
			let pool = project.discussions.get(thread);
			if (!pool) project.discussions.set(thread, (pool = []));
			if (pool.length === 0 || r.chance(0.15)) {
				pool.push({
					id: r.hex(24),
					author: { name: r.chance(0.05) ? null : this.personName(lang, 'Unspecified') },
					source: { ...source, socialChannel: { ...source.socialChannel } },
				});
				if (pool.length > 50) pool.shift();
			}
			const d = r.pick(pool);
			mention.discussion = {
				id: d.id,
				author: { ...d.author },
				source: { ...d.source, socialChannel: { ...d.source.socialChannel } },
			};
		}
		if (r.chance(0.12)) {
			const tags = [r.pick(TAG_NAMES)];
			if (r.chance(0.3)) tags.push(r.pick(TAG_NAMES));
			mention.tags = [...new Set(tags)];
		}
		if (type === 'Comment' && r.chance(0.6)) {
			mention.context = {
				parent: {
					content: { text: fill(r.pick(lang.parents), vars) },
					author: { name: mention.discussion?.author.name ?? this.personName(lang, 'Unspecified') },
				},
			};
		}
		if (r.chance(0.5)) mention.deprecatedV1Fields = { id: r.digits(10) };
		if (r.chance(0.02)) mention.sentioneInternalScore = Math.round(r.next() * 1000) / 1000;
		return mention;
	}

	/** A realistic collection delay in ms (seconds to hours; a few "late" mentions take days). */
	collectionDelay(): number {
		const r = this.rng;
		const kind = r.weighted([
			['seconds', 60],
			['minutes', 30],
			['hours', 8],
			['days', 2],
		] as const);
		switch (kind) {
			case 'seconds':
				return r.int(5_000, 300_000);
			case 'minutes':
				return r.int(300_000, 6 * 3600_000);
			case 'hours':
				return r.int(6 * 3600_000, 48 * 3600_000);
			default:
				return r.int(2 * DAY, 5 * DAY);
		}
	}

	/** A publication delay for mentions collected live (mostly minutes, sometimes hours). */
	liveDelay(): number {
		const r = this.rng;
		return r.chance(0.85) ? r.int(2_000, 900_000) : r.int(900_000, 12 * 3600_000);
	}

	get random(): Rng {
		return this.rng;
	}
}

// ---------------------------------------------------------------------------------------------
// Store

export interface GenerateOptions {
	seed: number;
	projects: number;
	mentionsPerProject: number;
	historyDays: number;
	nowMs: number;
}

export class Store {
	readonly projects = new Map<number, Project>();
	/** Every mention across projects, for the engagement firehose. */
	readonly mentions = new Map<string, Rec>();
	readonly ids = new Set<string>();
	private nextProjectId = 1001;
	readonly factory: MentionFactory;
	readonly liveFactory: MentionFactory;

	constructor(seed: number) {
		this.factory = new MentionFactory(new Rng(deriveSeed(seed, 'data')), this.ids);
		this.liveFactory = new MentionFactory(new Rng(deriveSeed(seed, 'live')), this.ids);
	}

	static generate(opts: GenerateOptions): Store {
		const store = new Store(opts.seed);
		for (let i = 0; i < opts.projects; i++) {
			const t = PROJECT_TEMPLATES[i % PROJECT_TEMPLATES.length];
			const round = Math.floor(i / PROJECT_TEMPLATES.length);
			const p = store.createProject(round ? `${t.name} ${round + 1}` : t.name, t.query, t.keywords);
			store.seedMentions(p, opts);
		}
		return store;
	}

	private seedMentions(p: Project, opts: GenerateOptions): void {
		const f = this.factory;
		const r = f.random;
		const now = opts.nowMs;
		const history = Math.max(opts.historyDays, 0) * DAY;
		const recent = Math.min(7 * DAY, history);
		const recs: Rec[] = [];
		let prevPub = now;
		for (let i = 0; i < opts.mentionsPerProject; i++) {
			// About 40% within the last 7 days, the rest spread over the history.
			const back =
				r.chance(0.4) || history <= recent ? r.next() * recent : recent + r.next() * (history - recent);
			let pub = Math.floor((now - back) / 1000) * 1000; // platforms give seconds
			if (i > 0 && r.chance(0.05)) pub = prevPub; // equal publishedAt
			prevPub = pub;
			const delay = f.collectionDelay();
			// Not collected in the future: a mention published just now was collected in between.
			const col = pub + delay <= now ? pub + delay : pub + Math.floor(r.next() * (now - pub));
			recs.push(this.makeRec(f.make(p, pub, col), p.id, false));
		}
		// Batches collected at the same instant: some mentions share exactly one collectedAt.
		recs.sort((a, b) => a.col - b.col);
		for (let i = 1; i < recs.length; i++) {
			const prev = recs[i - 1];
			if (r.chance(0.1) && prev.col >= recs[i].pub) {
				recs[i].m.collectedAt = prev.m.collectedAt;
				recs[i].col = prev.col;
			}
		}
		for (const rec of recs) this.insert(p, rec);
	}

	makeRec(m: Mention, projectId: number, fresh: boolean): Rec {
		const rec: Rec = {
			m,
			id: m.id,
			projectId,
			pub: 0,
			col: 0,
			fresh,
			infl: null,
			er: null,
			like: null,
			share: null,
			foll: null,
		};
		refreshKeys(rec);
		return rec;
	}

	createProject(name: string, query: string, keywords?: string[]): Project {
		const id = this.nextProjectId++;
		const p: Project = {
			id,
			name,
			query,
			keywords: keywords ?? keywordsFromQuery(query),
			recs: [],
			byId: new Map(),
			sorted: new Map(),
			tags: new Map(),
			discussions: new Map(),
		};
		this.projects.set(id, p);
		return p;
	}

	updateProject(p: Project, name: string, query: string): void {
		p.name = name;
		if (p.query !== query) {
			p.query = query;
			p.keywords = keywordsFromQuery(query);
		}
	}

	deleteProject(p: Project): void {
		for (const rec of p.recs) this.mentions.delete(rec.id);
		this.projects.delete(p.id);
	}

	/** Projects in id order (the list order, D-10). */
	listProjects(): Project[] {
		return [...this.projects.values()].sort((a, b) => a.id - b.id);
	}

	/** Add one record to a project: indices, tags, and every cached sort order. */
	insert(p: Project, rec: Rec): void {
		p.recs.push(rec);
		p.byId.set(rec.id, rec);
		this.mentions.set(rec.id, rec);
		for (const t of rec.m.tags ?? []) {
			let set = p.tags.get(t);
			if (!set) p.tags.set(t, (set = new Set()));
			set.add(rec.id);
		}
		for (const [sort, arr] of p.sorted) insertSorted(arr, sort as SortType, rec);
	}

	/** All records of a project in a sort order (cached; D-19). */
	sorted(p: Project, sort: SortType): Rec[] {
		let arr = p.sorted.get(sort);
		if (!arr) {
			arr = p.recs.slice().sort(comparator(sort));
			p.sorted.set(sort, arr);
		}
		return arr;
	}

	/** A mention's metrics changed: drop the orders that depend on them. */
	metricsChanged(rec: Rec): void {
		refreshKeys(rec);
		const p = this.projects.get(rec.projectId);
		if (!p) return;
		for (const s of METRIC_SORTS) p.sorted.delete(s);
	}

	/** A mention's other fields changed (tags): only the cached JSON is stale. */
	touched(rec: Rec): void {
		rec.json = undefined;
	}

	static allSorts(): readonly SortType[] {
		return SORT_TYPES;
	}
}

function titleCase(phrase: string): string {
	return phrase.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** Display keywords for a project created through the API: its query's positive phrases. */
export function keywordsFromQuery(query: string): string[] {
	const parsed = parseQuery(query);
	if (!parsed.ok) return [];
	return [...new Set(positiveKeywords(parsed.ast))].map(titleCase);
}
