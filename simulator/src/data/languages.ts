// Vocabulary: the languages mentions are written in. A mention is written in the language of its
// `content.language.code` (a mention without a detected language is written in English), by an
// author with a name of that language.

/** The languages texts are written in (`en-gb` writes `en`; a null language writes `en`). */
export type TextLanguage = 'en' | 'pl' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'sv' | 'uk';
export type Mood = 'Positive' | 'Negative' | 'Neutral';

/** Names by gender; `last` is one list when surnames do not change with gender. */
export interface Names {
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
export interface LanguageText {
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

export const TEXTS: Record<TextLanguage, LanguageText> = {
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
		negative: [
			'Third time this week with the {topic} at {kw}. {opinion} Customer service, please reply!',
		],
		opinions: {
			Positive: [
				'Absolutely great.',
				'Works like a charm.',
				'Made my day!',
				'Exceeded my expectations.',
				'Worth every penny.',
				'So much better than last year.',
			],
			Negative: [
				'A total disaster.',
				'Let me down again.',
				'Terrible, for the third time this month.',
				'Still not fixed after weeks.',
				'Way too expensive for what you get.',
				'What a nightmare.',
			],
			Neutral: [
				'Announced today.',
				'Some changes start next month.',
				'It is being discussed on the forum.',
				'More details next week.',
				'Does anyone know more?',
			],
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
		news: [
			'techdaily.com',
			'morningpost.co.uk',
			'cityherald.com',
			'marketwatchers.net',
			'gadgetreview.com',
		],
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
			Positive: [
				'Polecam każdemu!',
				'Super sprawa, naprawdę warto.',
				'Pozytywne zaskoczenie.',
				'Bez zarzutu.',
				'Wreszcie działa jak należy.',
			],
			Negative: [
				'Porażka.',
				'Nie polecam.',
				'Znowu to samo, mam dość.',
				'Dramat, szkoda słów.',
				'Za drogo jak na to, co oferują.',
			],
			Neutral: [
				'Są jakieś nowe informacje?',
				'Zobaczymy, co z tego wyjdzie.',
				'Podobno zmiany od przyszłego miesiąca.',
				'Szczegóły na ich stronie.',
			],
		},
		titles: [
			'Recenzja: {kw} po dwóch tygodniach',
			'{kw} kontra {competitor}: co wybrać?',
			'{kw}: {topic} pod lupą',
		],
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
			Positive: [
				'Echt top!',
				'Sehr zufrieden.',
				'Klare Empfehlung.',
				'Besser als erwartet.',
				'Jeden Cent wert.',
			],
			Negative: [
				'Eine Katastrophe.',
				'Total enttäuscht.',
				'Schon wieder dasselbe Problem.',
				'Viel zu teuer für das, was man bekommt.',
				'Nie wieder.',
			],
			Neutral: [
				'Heute angekündigt.',
				'Ab nächstem Monat gibt es Änderungen.',
				'Weiß jemand mehr?',
				'Details folgen nächste Woche.',
			],
		},
		titles: [
			'Test: {kw} nach zwei Wochen',
			'{kw} gegen {competitor}: Was ist besser?',
			'{kw}: {topic} im Check',
		],
		parents: [
			'Was haltet ihr von {kw}? Thema {topic}.',
			'Neuer Beitrag von {kw} zum Thema {topic}.',
		],
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
			Positive: [
				'Franchement génial.',
				'Ça marche parfaitement.',
				'Je recommande !',
				'Mieux que prévu.',
				'Ça vaut vraiment le coup.',
			],
			Negative: [
				'Une catastrophe.',
				'Quelle déception.',
				'Toujours le même problème.',
				'Beaucoup trop cher pour ce que c’est.',
				'À éviter.',
			],
			Neutral: [
				'Annoncé aujourd’hui.',
				'Des changements le mois prochain.',
				'Quelqu’un en sait plus ?',
				'Plus de détails la semaine prochaine.',
			],
		},
		titles: [
			'Test : {kw} après deux semaines',
			'{kw} contre {competitor} : lequel choisir ?',
			'{kw} : {topic} à la loupe',
		],
		parents: [
			'Vous pensez quoi de {kw} ? Côté {topic}.',
			'Nouvelle publication de {kw} sur le sujet : {topic}.',
		],
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
			Positive: [
				'¡Una maravilla!',
				'Funciona perfecto.',
				'Lo recomiendo.',
				'Mejor de lo esperado.',
				'Vale la pena.',
			],
			Negative: [
				'Un desastre.',
				'Qué decepción.',
				'Otra vez el mismo problema.',
				'Carísimo para lo que ofrecen.',
				'No lo recomiendo.',
			],
			Neutral: [
				'Lo anunciaron hoy.',
				'Habrá cambios el mes que viene.',
				'¿Alguien sabe algo más?',
				'Más detalles la semana que viene.',
			],
		},
		titles: [
			'Análisis: {kw} después de dos semanas',
			'{kw} contra {competitor}: ¿cuál elegir?',
			'{kw}: {topic} a examen',
		],
		parents: [
			'¿Qué opináis de {kw}? Tema: {topic}.',
			'Nueva publicación de {kw} sobre el tema: {topic}.',
		],
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
			Positive: [
				'Davvero fantastico.',
				'Funziona alla perfezione.',
				'Lo consiglio!',
				'Meglio del previsto.',
				'Ne vale davvero la pena.',
			],
			Negative: [
				'Un disastro.',
				'Che delusione.',
				'Sempre lo stesso problema.',
				'Troppo caro per quello che offre.',
				'Da evitare.',
			],
			Neutral: [
				'Annunciato oggi.',
				'Ci saranno cambiamenti il mese prossimo.',
				'Qualcuno ne sa di più?',
				'Altri dettagli la settimana prossima.',
			],
		},
		titles: [
			'Recensione: {kw} dopo due settimane',
			'{kw} contro {competitor}: quale scegliere?',
			'{kw}: {topic} sotto la lente',
		],
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
			Positive: [
				'Simplesmente ótimo.',
				'Funciona perfeitamente.',
				'Recomendo!',
				'Melhor do que eu esperava.',
				'Vale muito a pena.',
			],
			Negative: [
				'Um desastre.',
				'Que decepção.',
				'De novo o mesmo problema.',
				'Caro demais pelo que oferecem.',
				'Não recomendo.',
			],
			Neutral: [
				'Anunciado hoje.',
				'Vai mudar no mês que vem.',
				'Alguém sabe mais?',
				'Mais detalhes na semana que vem.',
			],
		},
		titles: [
			'Análise: {kw} depois de duas semanas',
			'{kw} contra {competitor}: qual escolher?',
			'{kw}: {topic} em detalhe',
		],
		parents: [
			'O que vocês acham de {kw}? Assunto: {topic}.',
			'Nova publicação de {kw} sobre o assunto: {topic}.',
		],
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
			Positive: [
				'Echt top!',
				'Werkt perfect.',
				'Aanrader!',
				'Beter dan verwacht.',
				'Elke cent waard.',
			],
			Negative: [
				'Een ramp.',
				'Wat een teleurstelling.',
				'Alweer hetzelfde probleem.',
				'Veel te duur voor wat je krijgt.',
				'Nooit meer.',
			],
			Neutral: [
				'Vandaag aangekondigd.',
				'Volgende maand verandert er iets.',
				'Weet iemand meer?',
				'Meer details volgende week.',
			],
		},
		titles: [
			'Review: {kw} na twee weken',
			'{kw} tegen {competitor}: wat kies je?',
			'{kw}: {topic} onder de loep',
		],
		parents: [
			'Wat vinden jullie van {kw}? Onderwerp: {topic}.',
			'Nieuw bericht van {kw} over het onderwerp {topic}.',
		],
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
			Positive: [
				'Helt fantastiskt.',
				'Fungerar perfekt.',
				'Rekommenderas!',
				'Bättre än väntat.',
				'Värt varenda krona.',
			],
			Negative: [
				'En katastrof.',
				'Vilken besvikelse.',
				'Samma problem igen.',
				'Alldeles för dyrt för vad man får.',
				'Aldrig mer.',
			],
			Neutral: [
				'Presenterades i dag.',
				'Det blir ändringar nästa månad.',
				'Vet någon mer?',
				'Mer information nästa vecka.',
			],
		},
		titles: [
			'Recension: {kw} efter två veckor',
			'{kw} mot {competitor}: vilket ska man välja?',
			'{kw}: {topic} under lupp',
		],
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
			Positive: [
				'Просто чудово.',
				'Працює ідеально.',
				'Рекомендую!',
				'Краще, ніж очікувалося.',
				'Варте своїх грошей.',
			],
			Negative: [
				'Це катастрофа.',
				'Яке розчарування.',
				'Знову та сама проблема.',
				'Занадто дорого як на таку якість.',
				'Не рекомендую.',
			],
			Neutral: [
				'Сьогодні оголосили.',
				'Наступного місяця будуть зміни.',
				'Хтось знає більше?',
				'Подробиці наступного тижня.',
			],
		},
		titles: [
			'Огляд: {kw} через два тижні',
			'{kw} проти {competitor}: що обрати?',
			'{kw}: {topic} під лупою',
		],
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

/** The language a mention is written in, by its language code (none detected: English). */
export const TEXT_LANGUAGE: Record<string, TextLanguage> = {
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
